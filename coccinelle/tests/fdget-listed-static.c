// expect: rejected: demo_swap() at line 21 between get and put: calls do_dup2()
static int do_dup2(struct files_struct *files, struct file *file, unsigned int fd, unsigned int flags)
{
	return fd;
}

static void demo_swap(struct file *newfile)
{
	do_dup2(NULL, newfile, 3, 0);
}

int demo_flags_then_swap(int fd, struct file *newfile)
{
	struct file *file;
	int ret;

	file = fget(fd);
	if (!file)
		return -EBADF;
	ret = file->f_flags;
	demo_swap(newfile);
	fput(file);
	return ret;
}
