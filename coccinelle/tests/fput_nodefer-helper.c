// expect: converted
static int demo_op(struct file *file, int flags)
{
	return file->f_flags & flags;
}

static int do_demo(unsigned int fd, int flags)
{
	struct file *file = fget(fd);
	int ret;

	if (!file)
		return -EBADF;
	ret = demo_op(file, flags);
	fput(file);
	return ret;
}

SYSCALL_DEFINE2(demo, unsigned int, fd, int, flags)
{
	return do_demo(fd, flags);
}

SYSCALL_DEFINE1(demo1, unsigned int, fd)
{
	return do_demo(fd, 0);
}
