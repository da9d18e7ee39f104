// Reached from a system call and from a work function: mixed, so unknown.
static void demo_flush(struct demo_dev *dev)
{
	__fput_sync(dev->file);
}

SYSCALL_DEFINE0(demo_flush_now)
{
	demo_flush(&demo_dev);
	return 0;
}

static void demo_flush_work(struct work_struct *work)
{
	demo_flush(&demo_dev);
}

static DECLARE_WORK(demo_work, demo_flush_work);
