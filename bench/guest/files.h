/* SPDX-License-Identifier: GPL-2.0 */
/*
 * files.h - what the guest benchmarks that hold many open files share:
 * one-line errors, the instruction clock, room for N descriptors, and a
 * process that holds N files until it is killed. Included by one .c file
 * each (bench/run builds each guest benchmark from its one source file).
 */
#ifndef BENCH_GUEST_FILES_H
#define BENCH_GUEST_FILES_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>

/* Print "NAME: message[: strerror(errno)]" and exit 1. */
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (errno)
		fprintf(stderr, ": %s", strerror(errno));
	fputc('\n', stderr);
	exit(1);
}

/* CLOCK_MONOTONIC: under QEMU -icount shift=0 one ns per guest instruction. */
static long long now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		die("clock_gettime");
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Make room for @nfiles descriptors plus a few for stdio and the pipe. */
static void raise_nofile(long nfiles)
{
	unsigned long want = nfiles + 64, nr_open = 0;
	struct rlimit rl;
	FILE *f;

	f = fopen("/proc/sys/fs/nr_open", "r");
	if (!f)
		die("open /proc/sys/fs/nr_open");
	if (fscanf(f, "%lu", &nr_open) != 1)
		die("read /proc/sys/fs/nr_open");
	fclose(f);

	if (nr_open < want) {
		f = fopen("/proc/sys/fs/nr_open", "w");
		if (!f || fprintf(f, "%lu\n", want) < 0 || fclose(f))
			die("raise fs.nr_open to %lu", want);
		nr_open = want;
	}

	rl.rlim_cur = want;
	rl.rlim_max = want;
	errno = 0;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("setrlimit(RLIMIT_NOFILE, %lu)", want);
}

/* Open @path @nfiles times (each open() a new struct file), say so on @wfd, wait. */
static void hold_files(const char *path, long nfiles, int wfd)
{
	long i;
	char c = 'r';

	for (i = 0; i < nfiles; i++) {
		if (open(path, O_RDONLY) < 0)
			die("open #%ld of %s", i, path);
	}
	if (write(wfd, &c, 1) != 1)
		die("write ready");
	for (;;)
		pause();
}

/* Fork a child that holds @nfiles opens of @path; return once it holds them. */
static pid_t spawn_holder(const char *path, long nfiles)
{
	int pfd[2];
	pid_t pid;
	char c;

	if (pipe(pfd))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(pfd[0]);
		hold_files(path, nfiles, pfd[1]);
	}
	close(pfd[1]);
	errno = 0;
	if (read(pfd[0], &c, 1) != 1)
		die("child %d did not get ready", pid);
	close(pfd[0]);
	return pid;
}

#endif /* BENCH_GUEST_FILES_H */
