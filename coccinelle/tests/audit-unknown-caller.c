// Stored in a field data/entries does not know (->release runs from
// __fput(): task work, the delayed_fput work or a synchronous put): the
// context is unknown, and so are the locks, though the function takes none.
static int demo_release(struct inode *inode, struct file *filp)
{
	struct demo_dev *dev = filp->private_data;

	__fput_sync(dev->backing);
	return 0;
}

static const struct file_operations demo_fops = {
	.owner		= THIS_MODULE,
	.release	= demo_release,
};
