// With the callees' summaries (COCCI_AUDIT_CALLEES=1): an indirect call before
// the put may return with a lock held, so the locks are unknown.
#define container_of(ptr, type, member) ((type *)(ptr))

static void demo_close_work(struct work_struct *work)
{
	struct demo_req *req = container_of(work, struct demo_req, work);

	req->ops->prepare(req);
	__fput_sync(req->file);
}

static int demo_setup(struct demo_req *req)
{
	INIT_WORK(&req->work, demo_close_work);
	return 0;
}
