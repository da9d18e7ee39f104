// expect: rejected: has no fput
static inline int is_demo_file(struct file *file)
{
	return file->f_op == &demo_fops;
}

struct dma_buf *demo_buf_get(int fd)
{
	struct file *file;

	file = fget(fd);

	if (!file)
		return ERR_PTR(-EBADF);

	if (!is_demo_file(file)) {
		fput(file);
		return ERR_PTR(-EINVAL);
	}

	return file->private_data;
}
