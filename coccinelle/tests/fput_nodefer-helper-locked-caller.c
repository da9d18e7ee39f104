// expect: rejected: after a lock-like call
static int do_demo(unsigned int fd)
{
	struct file *file = fget(fd);

	if (!file)
		return -EBADF;
	fput(file);
	return 0;
}

SYSCALL_DEFINE1(demo, unsigned int, fd)
{
	int ret;

	down_write(&demo_sem);
	ret = do_demo(fd);
	up_write(&demo_sem);
	return ret;
}
