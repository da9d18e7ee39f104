// expect: converted
static inline struct inode *file_inode(const struct file *f)
{
	return f->f_inode;
}

static int demo_sync(struct inode *inode, int datasync)
{
	return inode->i_state + datasync;
}

long demo_class_check(int dfd, unsigned int fd, int flags)
{
	struct file *file;
	long ret;

	if (dfd < 0)
		return -EINVAL;
	file = fget(fd);
	if (!file)
		return -EBADF;
	if (!(file->f_mode & FMODE_READ)) {
		fput(file);
		return -EBADF;
	}
	if (flags & 1) {
		ret = -EINVAL;
		goto out;
	}
	ret = demo_sync(file_inode(file), flags);
out:
	fput(file);
	return ret;
}
