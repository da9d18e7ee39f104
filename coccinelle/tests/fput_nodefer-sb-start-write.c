// expect: rejected: sb_start_write() at line 9: the lock is held at the put
SYSCALL_DEFINE1(demo_sb_start_write, unsigned int, fd)
{
	struct file *file = fget(fd);
	unsigned long flags = 0;

	if (!file)
		return -EBADF;
	sb_start_write(demo_sb);
	demo_count += flags;
	fput(file);
	sb_end_write(demo_sb);
	return 0;
}
