// expect: rejected: not a system call body
static int do_demo(unsigned int fd)
{
	struct file *file = fget(fd);

	if (!file)
		return -EBADF;
	fput(file);
	return 0;
}

SYSCALL_DEFINE1(demo, unsigned int, fd)
{
	return do_demo(fd);
}

int demo_in_kernel(struct demo_ctx *ctx)
{
	int ret;

	spin_lock(&ctx->lock);
	ret = do_demo(ctx->fd);
	spin_unlock(&ctx->lock);
	return ret;
}
