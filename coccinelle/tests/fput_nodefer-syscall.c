// expect: converted
SYSCALL_DEFINE1(demo_sync, unsigned int, fd)
{
	struct file *file = fget(fd);
	int ret;

	if (!file)
		return -EBADF;
	ret = demo_fsync(file);
	fput(file);
	return ret;
}
