// expect: rejected: demo_tidy() at line 21 between get and put: demo_drop()
static void demo_drop(int fd)
{
	close_fd(fd);
}

static void demo_tidy(int fd)
{
	demo_drop(fd + 1);
}

int demo_flags_then_tidy(int fd)
{
	struct file *file;
	int ret;

	file = fget(fd);
	if (!file)
		return -EBADF;
	ret = file->f_flags;
	demo_tidy(fd);
	fput(file);
	return ret;
}
