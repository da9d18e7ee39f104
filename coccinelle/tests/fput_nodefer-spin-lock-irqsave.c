// expect: rejected: spin_lock_irqsave() at line 9: the lock is held at the put
SYSCALL_DEFINE1(demo_spin_lock_irqsave, unsigned int, fd)
{
	struct file *file = fget(fd);
	unsigned long flags = 0;

	if (!file)
		return -EBADF;
	spin_lock_irqsave(&demo_lock, flags);
	demo_count += flags;
	fput(file);
	spin_unlock_irqrestore(&demo_lock, flags);
	return 0;
}
