// expect: rejected: preempt_disable() at line 9: the lock is held at the put
SYSCALL_DEFINE1(demo_preempt_disable, unsigned int, fd)
{
	struct file *file = fget(fd);
	unsigned long flags = 0;

	if (!file)
		return -EBADF;
	preempt_disable();
	demo_count += flags;
	fput(file);
	preempt_enable();
	return 0;
}
