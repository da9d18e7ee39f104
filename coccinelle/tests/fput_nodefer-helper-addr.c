// expect: rejected: the address of do_demo() is taken
static int do_demo(unsigned int fd)
{
	struct file *file = fget(fd);

	if (!file)
		return -EBADF;
	fput(file);
	return 0;
}

static const struct demo_ops ops = {
	.op = do_demo,
};

SYSCALL_DEFINE1(demo, unsigned int, fd)
{
	return do_demo(fd);
}
