// expect: converted
static bool demo_is_ns_file(struct file *file)
{
	return file->f_op == &demo_ns_fops;
}

static struct demo_ns *demo_ns_of(struct file *file)
{
	if (!demo_is_ns_file(file))
		return NULL;
	return file->private_data;
}

int demo_setns(int fd)
{
	struct file *file;
	struct demo_ns *ns;
	int err = 0;

	file = fget(fd);
	if (!file)
		return -EBADF;
	ns = demo_ns_of(file);
	if (!ns)
		err = -EINVAL;
	fput(file);
	return err;
}
