// expect: rejected: file is also assigned at line 26 (not only the fget() result)
static inline struct inode *file_inode(const struct file *f)
{
	return f->f_inode;
}

static int demo_set_idx(struct demo_ctx *ctx, struct file *file)
{
	struct inode *inode = file_inode(file);

	if (inode->i_rdev != 42)
		return -EINVAL;
	ctx->idx = inode->i_ino;
	return 0;
}

/* Linux 6.12's coda_parse_fd(): the file is param->file (a reference the
 * parameter hands over) or the fget() result; both must be put. */
static int demo_parse_fd(struct demo_ctx *ctx, struct demo_param *param,
			 struct demo_result *result)
{
	struct file *file;
	int err;

	if (param->type == 1) {
		file = param->file;
		param->file = NULL;
	} else {
		file = fget(result->uint_32);
	}
	if (!file)
		return -EBADF;

	err = demo_set_idx(ctx, file);
	fput(file);
	return err;
}
