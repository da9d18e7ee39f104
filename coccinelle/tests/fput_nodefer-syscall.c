// expect: converted
static int demo_fsync(struct file *file)
{
	return file->f_flags;
}

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
