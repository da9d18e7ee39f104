// expect: converted to struct fd, not CLASS(fd): file is used at line 22, outside the scope a CLASS(fd) there would have
static inline struct inode *file_inode(const struct file *f)
{
	return f->f_inode;
}

/* The fget() in an if arm, its result tested, used and put after the arm
 * (on the path that skips the arm, the test after it returns first):
 * CLASS(fd) in the arm would put the file at the arm's closing brace,
 * before its uses. */
long demo_class_nested(int fd, int flags)
{
	struct file *file;
	long ret;

	if (fd >= 0) {
		file = fget(fd);
		flags |= 1;
	}
	if (fd < 0)
		return -EINVAL;
	if (!file)
		return -EBADF;
	ret = file_inode(file)->i_ino + flags;
	fput(file);
	return ret;
}
