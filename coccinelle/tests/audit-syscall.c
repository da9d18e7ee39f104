// A static helper called only from system calls: user task, and the lock
// one caller holds at the call is held at the put.
static DEFINE_MUTEX(demo_lock);

static void demo_release_file(struct file *file)
{
	__fput_sync(file);
}

SYSCALL_DEFINE1(demo_close, unsigned int, fd)
{
	demo_release_file(demo_table[fd]);
	return 0;
}

SYSCALL_DEFINE1(demo_close_locked, unsigned int, fd)
{
	mutex_lock(&demo_lock);
	demo_release_file(demo_table[fd]);
	mutex_unlock(&demo_lock);
	return 0;
}
