// expect: converted
bool file_is_kvm(struct file *file)
{
	return file && file->f_op == &kvm_vm_fops;
}

int demo_move(struct kvm *kvm, unsigned int source_fd)
{
	struct file *source_kvm_file;
	struct kvm *source_kvm;
	int ret;

	source_kvm_file = fget(source_fd);
	if (!file_is_kvm(source_kvm_file)) {
		ret = -EBADF;
		goto out_fput;
	}
	source_kvm = source_kvm_file->private_data;
	ret = source_kvm->x;
out_fput:
	if (source_kvm_file)
		fput(source_kvm_file);
	return ret;
}
