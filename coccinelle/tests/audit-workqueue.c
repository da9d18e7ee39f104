// A work function: reached from a worker of a workqueue, no lock held.
#define container_of(ptr, type, member) ((type *)(ptr))

static void demo_close_work(struct work_struct *work)
{
	struct demo_req *req = container_of(work, struct demo_req, work);

	__fput_sync(req->file);
}

static int demo_setup(struct demo_req *req)
{
	INIT_WORK(&req->work, demo_close_work);
	return 0;
}
