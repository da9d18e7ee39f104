// expect: rejected: after the put may use what it frees
static inline struct inode *file_inode(const struct file *f)
{
	return f->f_inode;
}

SYSCALL_DEFINE1(demo_after, unsigned int, fd)
{
	struct file *file = fget(fd);
	struct inode *inode;

	if (!file)
		return -EBADF;
	inode = file_inode(file);
	fput(file);
	return inode->i_mode;
}
