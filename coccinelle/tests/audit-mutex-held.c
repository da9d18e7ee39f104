// A put with a mutex held in the function: that lock.
static DEFINE_MUTEX(demo_lock);

SYSCALL_DEFINE1(demo_drop, unsigned int, fd)
{
	struct file *file = demo_lookup(fd);

	mutex_lock(&demo_lock);
	demo_count++;
	__fput_sync(file);
	mutex_unlock(&demo_lock);
	return 0;
}

static struct file *demo_lookup(unsigned int fd)
{
	return demo_table[fd];
}
