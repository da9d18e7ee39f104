// expect: converted
COMPAT_SYSCALL_DEFINE2(demo_compat, unsigned int, fd, compat_uptr_t, arg)
{
	struct file *file = fget(fd);
	long ret;

	if (!file)
		return -EBADF;
	ret = demo_compat_op(file, compat_ptr(arg));
	fput(file);
	return ret;
}
