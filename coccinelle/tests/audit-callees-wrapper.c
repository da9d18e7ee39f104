// With the callees' summaries (COCCI_AUDIT_CALLEES=1): a call of a function
// the summaries say may return with a lock held makes the locks unknown
// (never named: the summaries' "may" is no proof that it is held).
static void demo_grab(struct demo_dev *dev)
{
	spin_lock(&dev->lock);
}

SYSCALL_DEFINE0(demo_grab_and_put)
{
	demo_grab(&demo_dev);
	__fput_sync(demo_dev.file);
	spin_unlock(&demo_dev.lock);
	return 0;
}
