/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Macro hints for coccinelle/audit.cocci, read after macros.h: the scoped
 * forms of include/linux/cleanup.h (and the ones built on them) take the
 * statement that follows as their body. Declared as iterators, spatch
 * parses a function that uses one (drivers/md/dm.c's open_table_device(),
 * kernel/acct.c's acct_write_process() in 7.3) instead of giving up on it,
 * and the audit sees the scope a scoped_guard() holds its lock for.
 * (Only the audit reads these: the conversions parse as they always did.)
 */
#define scoped_guard(_name, args...) YACFE_ITERATOR
#define scoped_cond_guard(_name, _fail, args...) YACFE_ITERATOR
#define scoped_class(_name, var, args...) YACFE_ITERATOR
#define scoped_with_creds(cred) YACFE_ITERATOR
#define scoped_with_kernel_creds() YACFE_ITERATOR
/*
 * The guard definitions themselves (a .c file may define one, with no
 * semicolon after it): nothing for spatch to parse; audit.sh reads the
 * class and its lock from the text.
 */
#define DEFINE_GUARD(_name, _type, _lock, _unlock)
#define DEFINE_GUARD_COND(X...)
#define DEFINE_LOCK_GUARD_0(_name, _lock, _unlock, ...)
#define DEFINE_LOCK_GUARD_1(_name, _type, _lock, _unlock, ...)
#define DEFINE_LOCK_GUARD_2(_name, _type, _lock, _unlock, ...)
#define DEFINE_LOCK_GUARD_1_COND(X...)
