// expect: rejected: file_close_fd() at line 10 between get and put: changes the fd table
int demo_take_other(int fd, int other)
{
	struct file *file, *old;
	int ret;

	file = fget(fd);
	if (!file)
		return -EBADF;
	old = file_close_fd(other);
	ret = file->f_flags;
	fput(file);
	if (old)
		fput(old);
	return ret;
}
