// expect: rejected: is not static
int ksys_demo(unsigned int fd)
{
	struct file *file = fget(fd);

	if (!file)
		return -EBADF;
	fput(file);
	return 0;
}

SYSCALL_DEFINE1(demo, unsigned int, fd)
{
	return ksys_demo(fd);
}
