// expect: rejected: no NULL check right after
int demo_nocheck(int fd)
{
	struct file *file;
	int ret = -EBADF;

	file = fget(fd);
	demo_log(fd);
	if (file) {
		ret = file->f_flags;
		fput(file);
	}
	return ret;
}
