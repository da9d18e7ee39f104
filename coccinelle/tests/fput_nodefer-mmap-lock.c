// expect: rejected: mmap_read_lock() at line
SYSCALL_DEFINE2(demo_mm, unsigned int, fd, unsigned long, addr)
{
	struct file *file = fget(fd);
	int ret;

	if (!file)
		return -EBADF;
	mmap_read_lock(current->mm);
	ret = demo_find(current->mm, addr);
	if (ret) {
		fput(file);
		goto out;
	}
	ret = 1;
out:
	mmap_read_unlock(current->mm);
	return ret;
}
