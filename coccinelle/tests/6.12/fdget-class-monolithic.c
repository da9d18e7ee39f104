// expect: converted
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

/* Linux 6.12's coda_parse_monolithic(): the fget() result is the only
 * source of the file, and it is put in the block that tests it. */
static int demo_parse_monolithic(struct demo_ctx *ctx, void *_data)
{
	struct file *file;
	struct demo_mount_data *data = _data;

	if (!data)
		return -EINVAL;

	if (data->version != 1)
		return -EINVAL;

	file = fget(data->fd);
	if (file) {
		demo_set_idx(ctx, file);
		fput(file);
	}
	return 0;
}
