// expect: rejected: local_irq_save() at line
SYSCALL_DEFINE1(demo_irq, unsigned int, fd)
{
	struct file *file = fget(fd);
	unsigned long flags;

	if (!file)
		return -EBADF;
	local_irq_save(flags);
	fput(file);
	local_irq_restore(flags);
	return 0;
}
