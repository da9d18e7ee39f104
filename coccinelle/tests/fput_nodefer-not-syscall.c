// expect: rejected: not in a system call body
int demo_release_all(struct demo_ctx *ctx)
{
	fput(ctx->file);
	return 0;
}
