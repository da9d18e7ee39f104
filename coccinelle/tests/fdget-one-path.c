// expect: rejected: has no fput
int demo_maybe(int fd, int keep)
{
	struct file *file;

	file = fget(fd);
	if (!file)
		return -EBADF;
	if (keep)
		return 0;
	fput(file);
	return 1;
}
