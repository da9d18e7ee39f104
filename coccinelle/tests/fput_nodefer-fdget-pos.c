// expect: rejected: fdget_pos() at line
SYSCALL_DEFINE2(demo_pos, unsigned int, fd, unsigned int, other)
{
	struct fd f = fdget_pos(fd);
	struct file *file;

	if (!f.file)
		return -EBADF;
	file = fget(other);
	if (file)
		fput(file);
	fdput_pos(f);
	return 0;
}
