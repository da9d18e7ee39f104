// expect: rejected: fd_install
int demo_dup_into(int fd, int newfd)
{
	struct file *file;

	file = fget(fd);
	if (!file)
		return -EBADF;
	get_file(file);
	fd_install(newfd, file);
	fput(file);
	return newfd;
}
