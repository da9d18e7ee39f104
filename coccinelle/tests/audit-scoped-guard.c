// scoped_guard() holds its lock for its body only.
DEFINE_LOCK_GUARD_1(spinlock, spinlock_t, spin_lock(_T->lock), spin_unlock(_T->lock))

SYSCALL_DEFINE1(demo_scoped, unsigned int, fd)
{
	struct file *file;

	scoped_guard(spinlock, &demo_dev.lock) {
		file = demo_dev.table[fd];
		__fput_sync(demo_dev.stale);
	}
	__fput_sync(file);
	return 0;
}
