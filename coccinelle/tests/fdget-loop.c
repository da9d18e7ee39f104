// expect: rejected: in a loop
int demo_sum(int *fds, int n)
{
	struct file *file;
	int i, sum = 0;

	for (i = 0; i < n; i++) {
		file = fget(fds[i]);
		if (!file)
			return -EBADF;
		sum += file->f_flags;
		fput(file);
	}
	return sum;
}
