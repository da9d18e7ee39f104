// expect: converted
int demo_nocheck(int fd)
{
	struct file *file;
	int ret = -EBADF;

	file = fget(fd);
	if (file) {
		ret = file->f_flags;
		fput(file);
	}
	return ret;
}
