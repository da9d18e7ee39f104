// expect: converted
// demo_wait_resize() drops the lock its caller holds and takes it again: it
// returns with the lock as it found it, not with one more held.
static void demo_wait_resize(struct demo *d)
{
	while (d->resizing) {
		spin_unlock(&d->lock);
		demo_count++;
		spin_lock(&d->lock);
	}
}

SYSCALL_DEFINE1(demo_resize, unsigned int, fd)
{
	struct file *file = fget(fd);

	if (!file)
		return -EBADF;
	spin_lock(&demo_dev.lock);
	demo_wait_resize(&demo_dev);
	demo_dev.count++;
	spin_unlock(&demo_dev.lock);
	fput(file);
	return 0;
}
