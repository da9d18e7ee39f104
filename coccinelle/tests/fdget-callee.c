// expect: rejected: file passed to demo_keep()
int demo_pass(int fd)
{
	struct file *file;
	int ret;

	file = fget(fd);
	if (!file)
		return -EBADF;
	ret = demo_keep(file);
	fput(file);
	return ret;
}
