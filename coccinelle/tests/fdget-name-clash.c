// expect: rejected: the name f is already used
int demo_clash(int fd, int f)
{
	struct file *file;
	int ret;

	file = fget(fd);
	if (!file)
		return -EBADF;
	ret = file->f_flags + f;
	fput(file);
	return ret;
}
