// expect: converted
static int demo_install(struct demo_ns *ns, struct file *file)
{
	return ns->flags + file->f_flags;
}

/* As upstream converted setns() by hand in 2024: left as it is. */
int demo_class_setns(int fd, int flags)
{
	CLASS(fd, f)(fd);
	int err = 0;

	if (fd_empty(f))
		return -EBADF;
	if (fd_file(f)->f_op != &demo_ns_fops)
		return -EINVAL;
	err = demo_install(fd_file(f)->private_data, fd_file(f));
	return err;
}

/* struct fd used the old way, with fd_file(): left as it is too. */
int demo_class_old_way(int fd)
{
	struct fd f = fdget(fd);
	int mode;

	if (!fd_file(f))
		return -EBADF;
	mode = fd_file(f)->f_mode;
	fdput(f);
	return mode;
}

/* The one fget() of the file. */
int demo_class_mode(int fd)
{
	struct file *filp = fget(fd);
	int mode;

	if (!filp)
		return -EBADF;
	mode = filp->f_mode;
	fput(filp);
	return mode;
}
