// expect: rejected: reference escapes
int demo_attach(struct demo_ctx *ctx, int fd)
{
	struct file *file;

	file = fget(fd);
	if (!file)
		return -EBADF;
	ctx->backing = file;
	fput(file);
	return 0;
}
