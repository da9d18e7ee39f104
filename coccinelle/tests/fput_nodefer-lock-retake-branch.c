// expect: rejected: demo_maybe() at line 17 may return with a lock held: takes spin_lock() at fput_nodefer-lock-retake-branch.c:8 and may return with it held
// Only one branch releases before the spin_lock(): on the other path the
// lock is taken fresh, and held on return.
static void demo_maybe(struct demo *d, int drop)
{
	if (drop)
		spin_unlock(&d->lock);
	spin_lock(&d->lock);
}

SYSCALL_DEFINE2(demo_maybe_drop, unsigned int, fd, int, drop)
{
	struct file *file = fget(fd);

	if (!file)
		return -EBADF;
	demo_maybe(&demo_dev, drop);
	fput(file);
	spin_unlock(&demo_dev.lock);
	return 0;
}
