// expect: rejected: spin_lock() at line
SYSCALL_DEFINE1(demo_spin, unsigned int, fd)
{
	struct file *file = fget(fd);

	if (!file)
		return -EBADF;
	spin_lock(&demo_lock);
	demo_count++;
	fput(file);
	spin_unlock(&demo_lock);
	return 0;
}
