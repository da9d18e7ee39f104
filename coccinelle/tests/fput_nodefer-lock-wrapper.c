// expect: rejected: demo_grab() at line 13 may return with a lock held: takes spin_lock()
static void demo_grab(struct demo *d)
{
	spin_lock(&d->lock);
}

SYSCALL_DEFINE1(demo_wrapped, unsigned int, fd)
{
	struct file *file = fget(fd);

	if (!file)
		return -EBADF;
	demo_grab(&demo_dev);
	demo_dev.count++;
	fput(file);
	spin_unlock(&demo_dev.lock);
	return 0;
}
