// expect: converted
int demo_mode(int fd)
{
	struct file *filp = fget(fd);
	int mode;

	if (!filp)
		return -EBADF;
	mode = filp->f_mode;
	fput(filp);
	return mode;
}
