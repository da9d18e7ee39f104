// expect: rejected: can be left without fput
int demo_leaky(int fd)
{
	struct file *file;
	int ret = -EBADF;

	file = fget(fd);
	if (file) {
		ret = file->f_flags;
		if (ret)
			fput(file);
	}
	return ret;
}
