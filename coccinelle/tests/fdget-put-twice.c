// expect: rejected: puts twice
int demo_twice(int fd, int x)
{
	struct file *file;

	file = fget(fd);
	if (!file)
		return -EBADF;
	if (x)
		fput(file);
	fput(file);
	return 0;
}
