// expect: rejected: used after fput
int demo_flags(int fd)
{
	struct file *file;

	file = fget(fd);
	if (!file)
		return -EBADF;
	fput(file);
	return file->f_flags;
}
