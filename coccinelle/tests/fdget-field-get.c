// expect: rejected: result not held in a local
int demo_attach2(struct demo_ctx *ctx, int fd)
{
	ctx->backing = fget(fd);
	if (!ctx->backing)
		return -EBADF;
	demo_use(ctx);
	fput(ctx->backing);
	return 0;
}
