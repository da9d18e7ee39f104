// expect: rejected: demo_reset() at line 24 between get and put: calls unshare_fd()
int unshare_fd(unsigned long flags, struct files_struct **new)
{
	*new = NULL;
	return 0;
}

static void demo_reset(void)
{
	struct files_struct *n;

	unshare_fd(0, &n);
}

int demo_flags_then_reset(int fd)
{
	struct file *file;
	int ret;

	file = fget(fd);
	if (!file)
		return -EBADF;
	ret = file->f_flags;
	demo_reset();
	fput(file);
	return ret;
}
