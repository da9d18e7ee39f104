// expect: rejected: has no fput
int demo_goto(int fd, int bad)
{
	struct file *file;
	int ret = 0;

	file = fget(fd);
	if (!file)
		return -EBADF;
	if (bad) {
		ret = -EINVAL;
		goto out;
	}
	ret = file->f_flags;
	fput(file);
out:
	return ret;
}
