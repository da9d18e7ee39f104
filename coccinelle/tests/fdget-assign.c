// expect: converted
long demo_fsync(unsigned int fd, int datasync)
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
