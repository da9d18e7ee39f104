// expect: converted
static inline struct inode *file_inode(const struct file *f)
{
	return f->f_inode;
}

static int demo_inode_check(struct inode *inode, int flags)
{
	return inode->i_mode & flags;
}

int demo_check(unsigned int fd, int flags)
{
	struct file *file;
	int ret = 0;

	file = fget(fd);
	if (!file)
		return -EBADF;
	if (!(file->f_mode & FMODE_READ)) {
		ret = -EBADF;
		goto out;
	}
	if (flags)
		ret = demo_inode_check(file_inode(file), flags);
out:
	fput(file);
	return ret;
}
