// expect: rejected: reference escapes
struct file *demo_lookup(int fd)
{
	struct file *file;

	file = fget(fd);
	if (!file)
		return NULL;
	if (file->f_op != &demo_fops) {
		fput(file);
		return NULL;
	}
	return file;
}
