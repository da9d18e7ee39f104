// expect: converted
int demo_dup_beside(int fd, int other)
{
	struct file *file;
	int ret;

	file = fget(fd);
	if (!file)
		return -EBADF;
	ret = ksys_dup(other);
	if (ret >= 0)
		ret = file->f_flags;
	fput(file);
	return ret;
}
