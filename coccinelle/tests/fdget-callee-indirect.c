// expect: rejected: unknown: indirect call through ->notify
struct demo_ops {
	void (*notify)(int);
};

static void demo_tell(const struct demo_ops *ops, int v)
{
	ops->notify(v);
}

int demo_flags_and_tell(int fd, const struct demo_ops *ops)
{
	struct file *file;
	int ret;

	file = fget(fd);
	if (!file)
		return -EBADF;
	ret = file->f_flags;
	demo_tell(ops, ret);
	fput(file);
	return ret;
}
