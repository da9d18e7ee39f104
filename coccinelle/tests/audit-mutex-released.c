// A put after the mutex is taken and released: no lock.
static DEFINE_MUTEX(demo_lock);

SYSCALL_DEFINE1(demo_drop, unsigned int, fd)
{
	struct file *file = demo_table[fd];

	mutex_lock(&demo_lock);
	demo_table[fd] = NULL;
	mutex_unlock(&demo_lock);
	__fput_sync(file);
	return 0;
}
