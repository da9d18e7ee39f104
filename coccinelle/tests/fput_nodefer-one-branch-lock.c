// expect: rejected: inode_lock() at line
SYSCALL_DEFINE2(demo_branch, unsigned int, fd, int, excl)
{
	struct file *file = fget(fd);
	int ret = 0;

	if (!file)
		return -EBADF;
	if (excl)
		inode_lock(demo_inode);
	fput(file);
	return ret;
}
