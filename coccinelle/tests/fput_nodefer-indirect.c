// expect: rejected: unknown: indirect call at line 9 before the put
SYSCALL_DEFINE2(demo_ops, unsigned int, fd, int, arg)
{
	struct file *file = fget(fd);
	int ret;

	if (!file)
		return -EBADF;
	ret = file->f_op->demo(file, arg);
	fput(file);
	return ret;
}
