// expect: rejected: rcu_read_lock() at line
SYSCALL_DEFINE1(demo_rcu, unsigned int, fd)
{
	struct file *file = fget(fd);

	if (!file)
		return -EBADF;
	rcu_read_lock();
	if (demo_lookup(fd))
		fput(file);
	rcu_read_unlock();
	return 0;
}
