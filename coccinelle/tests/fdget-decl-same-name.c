// expect: converted
static int demo_mode_of(struct file *f)
{
	return f->f_mode;
}

int demo_mode(int fd)
{
	int ret;
	struct file *f = fget(fd);

	if (!f)
		return -EBADF;
	ret = demo_mode_of(f);
	fput(f);
	return ret;
}
