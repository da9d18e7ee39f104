// A kthread function: reached from kthread(), no lock held.
static bool kthread_should_stop(void)
{
	return demo_stopping;
}

static int demo_thread(void *data)
{
	struct demo_dev *dev = data;

	while (!kthread_should_stop())
		__fput_sync(demo_next_file(dev));
	return 0;
}

static int demo_start(struct demo_dev *dev)
{
	dev->task = kthread_run(demo_thread, dev, "demo");
	return 0;
}

static struct file *demo_next_file(struct demo_dev *dev)
{
	return dev->files[dev->next++];
}
