// A __free() class whose destructor is a synchronous put: the put runs when
// the variable leaves its scope, here under the caller's mutex on an error
// path (on success no_free_ptr() hands the file on: no put).
#define IS_ERR(p) ((unsigned long)(p) > -4096UL)
#define PTR_ERR(p) ((long)(p))
#define IS_ERR_OR_NULL(p) (!(p) || IS_ERR(p))

DEFINE_FREE(demo_sync, struct file *, if (!IS_ERR_OR_NULL(_T)) __fput_sync(_T))

static DEFINE_MUTEX(demo_on_lock);

static int demo_on(const char __user *name)
{
	struct file *file __free(demo_sync) = NULL;

	file = demo_open(name);
	if (IS_ERR(file))
		return PTR_ERR(file);
	if (!demo_ok(file))
		return -EINVAL;
	demo_state.file = no_free_ptr(file);
	return 0;
}

SYSCALL_DEFINE1(demo_acct, const char __user *, name)
{
	int error;

	mutex_lock(&demo_on_lock);
	error = demo_on(name);
	mutex_unlock(&demo_on_lock);
	return error;
}

static struct file *demo_open(const char __user *name)
{
	return demo_files[name[0]];
}

static bool demo_ok(struct file *file)
{
	return file->f_mode & 1;
}
