// expect: rejected: indirect call
static inline struct inode *file_inode(const struct file *f)
{
	return f->f_inode;
}

long demo_ioctl(int fd, unsigned int cmd, unsigned long arg)
{
	struct file *file;
	long ret;

	file = fget(fd);
	if (!file)
		return -EBADF;
	ret = demo_ops->ioctl(file_inode(file), cmd, arg);
	fput(file);
	return ret;
}
