/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lines of Linux 6.12's include/linux/file.h that make a tree one whose
 * fdget.cocci conversions use CLASS(fd) (coccinelle/data/idioms): the cases
 * of this directory are run as in such a tree.
 */
struct fd {
	unsigned long word;
};
#define fd_file(f) ((struct file *)((f).word & ~(FDPUT_FPUT|FDPUT_POS_UNLOCK)))
static inline bool fd_empty(struct fd f)
{
	return unlikely(!f.word);
}
DEFINE_CLASS(fd, struct fd, fdput(_T), fdget(fd), int fd)
