// expect: rejected: indirect call
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
