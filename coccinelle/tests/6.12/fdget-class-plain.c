// expect: converted
static inline struct inode *file_inode(const struct file *f)
{
	return f->f_inode;
}

static int demo_sync(struct inode *inode, int datasync)
{
	return inode->i_state + datasync;
}

long demo_class_fsync(unsigned int fd, int datasync)
{
	struct file *file;
	long ret;

	file = fget(fd);
	if (!file)
		return -EBADF;
	ret = demo_sync(file_inode(file), datasync);
	fput(file);
	return ret;
}
