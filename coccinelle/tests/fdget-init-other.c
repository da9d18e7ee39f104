// expect: rejected: file is also assigned at line 4 (not only the fget() result)
int demo_init_other(int fd, int flags)
{
	struct file *file = NULL;
	int ret;

	if (flags & 1)
		file = fget(fd);
	if (!file)
		return -EBADF;
	ret = file->f_flags;
	fput(file);
	return ret;
}
