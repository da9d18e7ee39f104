// expect: rejected: in a loop
int demo_retry(int fd)
{
	struct file *file;
	int tries = 0;

retry:
	file = fget(fd);
	if (!file)
		return -EBADF;
	if (!file->f_flags && tries++ < 3) {
		fput(file);
		goto retry;
	}
	fput(file);
	return tries;
}
