// expect: rejected: 2 functions are called demo_getfd()
static int demo_getfd(struct pid *pid, int fd)
{
	struct file *file = demo_fget(pid, fd);
	int ret;

	if (IS_ERR(file))
		return PTR_ERR(file);
	ret = demo_install(file);
	fput(file);
	return ret;
}

SYSCALL_DEFINE2(demo_getfd, int, pidfd, int, fd)
{
	return demo_getfd(demo_pid(pidfd), fd);
}
