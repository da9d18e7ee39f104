// expect: rejected: file passed to demo_note()
static struct file *demo_last;

static void demo_remember(struct file *file)
{
	demo_last = file;
}

static void demo_note(struct file *file)
{
	if (file->f_mode)
		demo_remember(file);
}

int demo_stash(int fd)
{
	struct file *file;

	file = fget(fd);
	if (!file)
		return -EBADF;
	demo_note(file);
	fput(file);
	return 0;
}
