// expect: rejected: the address of do_demo_work() is taken
static void do_demo_work(struct work_struct *work)
{
	struct demo_req *req = container_of(work, struct demo_req, work);
	struct file *file = fget(req->fd);

	if (!file)
		return;
	req->flags = file->f_flags;
	fput(file);
}

SYSCALL_DEFINE1(demo_queue, unsigned int, fd)
{
	INIT_WORK(&demo_req.work, do_demo_work);
	demo_req.fd = fd;
	schedule_work(&demo_req.work);
	return 0;
}
