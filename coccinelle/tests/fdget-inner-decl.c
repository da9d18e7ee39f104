// expect: converted
static long demo_dev_ioctl(struct file *file, unsigned int cmd, int oldfd)
{
	int res = -ENOTTY;

	switch (cmd) {
	case DEMO_IOC_CLONE:
		if (oldfd >= 0) {
			struct file *old = fget(oldfd);

			res = -EINVAL;
			if (old) {
				if (old->f_op == file->f_op)
					res = 0;
				fput(old);
			}
		}
		break;
	}
	return res;
}
