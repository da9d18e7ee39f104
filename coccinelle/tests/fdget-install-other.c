// expect: converted
int demo_open_beside(int fd, struct file *newfile, int newfd)
{
	struct file *file;
	int ret;

	file = fget(fd);
	if (!file)
		return -EBADF;
	ret = file->f_flags;
	fd_install(newfd, newfile);
	fput(file);
	return ret;
}
