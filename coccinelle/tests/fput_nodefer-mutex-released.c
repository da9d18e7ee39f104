// expect: converted
SYSCALL_DEFINE1(demo_mutex, unsigned int, fd)
{
	struct file *file = fget(fd);

	if (!file)
		return -EBADF;
	mutex_lock(&demo_mutex);
	demo_count++;
	mutex_unlock(&demo_mutex);
	fput(file);
	return 0;
}
