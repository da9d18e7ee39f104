// expect: converted
static void __user *compat_ptr(compat_uptr_t uptr)
{
	return (void __user *)(unsigned long)uptr;
}

static long demo_compat_op(struct file *file, void __user *arg)
{
	return file->f_flags;
}

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
