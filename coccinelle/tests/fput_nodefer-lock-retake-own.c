// expect: rejected: demo_cycle() at line 18 may return with a lock held: takes spin_lock() at fput_nodefer-lock-retake-own.c:9 and may return with it held
// The release before the second spin_lock() drops the function's own first
// one: this is no retake, the lock is held on return.
static void demo_cycle(struct demo *d)
{
	spin_lock(&d->lock);
	d->count++;
	spin_unlock(&d->lock);
	spin_lock(&d->lock);
}

SYSCALL_DEFINE1(demo_recycle, unsigned int, fd)
{
	struct file *file = fget(fd);

	if (!file)
		return -EBADF;
	demo_cycle(&demo_dev);
	fput(file);
	spin_unlock(&demo_dev.lock);
	return 0;
}
