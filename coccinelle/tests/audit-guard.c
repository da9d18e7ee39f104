// guard(mutex) holds its lock to the end of its block: the first put is
// under it, the second (after the block) is not.
DEFINE_LOCK_GUARD_1(mutex, struct mutex, mutex_lock(_T->lock), mutex_unlock(_T->lock))

static DEFINE_MUTEX(demo_lock);

SYSCALL_DEFINE2(demo_swap, unsigned int, fd, unsigned int, other)
{
	struct file *old = demo_table[other];

	if (fd < DEMO_MAX) {
		guard(mutex)(&demo_lock);
		struct file *file = demo_table[fd];

		demo_table[fd] = NULL;
		__fput_sync(file);
	}
	__fput_sync(old);
	return 0;
}
