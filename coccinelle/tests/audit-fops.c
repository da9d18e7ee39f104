// An ioctl method: reached from the ioctl system call (fs/ioctl.c), a user task.
static long demo_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct demo_dev *dev = filp->private_data;

	if (cmd != DEMO_RESET)
		return -ENOTTY;
	__fput_sync(dev->backing);
	return 0;
}

static int demo_release(struct inode *inode, struct file *filp)
{
	return 0;
}

static const struct file_operations demo_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= demo_ioctl,
	.release	= demo_release,
};
