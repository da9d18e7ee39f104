// expect: rejected: close_fd() at line
int demo_close_other(int fd, int other)
{
	struct file *file;
	int ret;

	file = fget(fd);
	if (!file)
		return -EBADF;
	close_fd(other);
	ret = file->f_flags;
	fput(file);
	return ret;
}
