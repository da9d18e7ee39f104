// expect: converted to struct fd, not CLASS(fd): goto out at line 9 jumps over the declaration
int demo_class_goto(int fd, int flags)
{
	struct file *file;
	int ret = 0;

	if (flags & 1) {
		ret = -EINVAL;
		goto out;
	}
	file = fget(fd);
	if (!file)
		return -EBADF;
	ret = file->f_flags;
	fput(file);
out:
	return ret;
}
