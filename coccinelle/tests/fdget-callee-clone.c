// expect: rejected: spawns with CLONE_FILES
static int demo_spawn(void)
{
	struct kernel_clone_args args = {
		.flags = CLONE_FILES | CLONE_VM,
	};

	return demo_do_clone(&args);
}

int demo_flags_and_spawn(int fd)
{
	struct file *file;
	int ret;

	file = fget(fd);
	if (!file)
		return -EBADF;
	ret = file->f_flags;
	demo_spawn();
	fput(file);
	return ret;
}
