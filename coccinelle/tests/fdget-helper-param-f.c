// expect: converted
static int file_mode_of(struct file *f)
{
	return f->f_mode;
}

int demo_mode(int fd)
{
	struct file *f;
	int ret;

	f = fget(fd);
	if (!f)
		return -EBADF;
	ret = file_mode_of(f);
	fput(f);
	return ret;
}
