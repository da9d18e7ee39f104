// expect: rejected: rtnl_lock() at line 9: the lock is held at the put
SYSCALL_DEFINE1(demo_rtnl_lock, unsigned int, fd)
{
	struct file *file = fget(fd);
	unsigned long flags = 0;

	if (!file)
		return -EBADF;
	rtnl_lock();
	demo_count += flags;
	fput(file);
	rtnl_unlock();
	return 0;
}
