/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Extra macros for spatch (--macro-file): the compat system call definers,
 * which Coccinelle's standard.h lacks. Like SYSCALL_DEFINEn there, each one
 * becomes a function named after the call, so its body is analysed.
 */
#define COMPAT_SYSCALL_DEFINE0(func) \
    asmlinkage long func(void)
#define COMPAT_SYSCALL_DEFINE1(func, t1, a1) \
    asmlinkage long func(t1 a1)
#define COMPAT_SYSCALL_DEFINE2(func, t1, a1, t2, a2) \
    asmlinkage long func(t1 a1, t2 a2)
#define COMPAT_SYSCALL_DEFINE3(func, t1, a1, t2, a2, t3, a3) \
    asmlinkage long func(t1 a1, t2 a2, t3 a3)
#define COMPAT_SYSCALL_DEFINE4(func, t1, a1, t2, a2, t3, a3, t4, a4) \
    asmlinkage long func(t1 a1, t2 a2, t3 a3, t4 a4)
#define COMPAT_SYSCALL_DEFINE5(func, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5) \
    asmlinkage long func(t1 a1, t2 a2, t3 a3, t4 a4, t5 a5)
#define COMPAT_SYSCALL_DEFINE6(func, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6) \
    asmlinkage long func(t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6)
#define SYSCALL_DEFINE0(func) \
    asmlinkage long func(void)
/*
 * Attributes spatch does not know, which otherwise make it skip the
 * definitions of kmalloc() and friends in include/linux/slab.h.
 */
#define __alloc_size(x, ...)
#define __realloc_size(x, ...)
