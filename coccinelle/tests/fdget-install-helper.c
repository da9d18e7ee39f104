// expect: rejected: file passed to demo_publish() at line 14: file is installed in the fd table by fd_install()
static void demo_publish(int newfd, struct file *file)
{
	fd_install(newfd, file);
}

int demo_dup_into_helper(int fd, int newfd)
{
	struct file *file;

	file = fget(fd);
	if (!file)
		return -EBADF;
	demo_publish(newfd, file);
	fput(file);
	return newfd;
}
