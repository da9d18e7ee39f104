// SPDX-License-Identifier: GPL-2.0
/*
 * open_close - time a tight open(2)+close(2) loop on one file.
 *
 * close(2) drops the last reference of the file it closes, so this
 * measures the final-put path: task_work deferral on the base kernel,
 * fput_nodefer() once close(2) uses it.  PATH (default
 * /tmp/open_close.bench) is created if needed; put it on a tmpfs so that
 * only the VFS open/close path is measured.
 *
 * glibc (2.35 and later) registers every thread with rseq(2) when the
 * kernel has CONFIG_RSEQ. A registered task then does rseq's notify-resume
 * work on each return to user mode that finds TIF_NOTIFY_RESUME set, and
 * task_work_add() sets it: on a kernel whose close(2) defers the final
 * fput() every close() pays it, on one that puts synchronously none does.
 * -s makes a run without that registration an error, so a benchmark that
 * claims rseq measures it; rseq=<0|1> on each RESULT line says whether the
 * process was registered.
 *
 * Output, one group per repetition, parsed by bench/run:
 *   MARK begin
 *   MARK end
 *   RESULT open_close n=<iterations> rep=<i> ns=<nanoseconds> ns_per_iter=<p> rseq=<0|1>
 *
 * Under QEMU -icount shift=0,sleep=off CLOCK_MONOTONIC counts guest
 * instructions (1 ns each).
 *
 * Usage: open_close [-n ITERATIONS] [-r REPS] [-f PATH] [-s]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/rseq.h>

static void print_usage(void)
{
	fprintf(stderr, "usage: open_close [-n ITERATIONS] [-r REPS] [-f PATH] [-s]\n");
	exit(2);
}

static unsigned long parse_count(const char *s)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || !v || *s == '-') {
		fprintf(stderr, "open_close: bad count '%s'\n", s);
		exit(2);
	}
	return v;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts)) {
		perror("open_close: clock_gettime");
		exit(1);
	}
	return (unsigned long long)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void mark(const char *what)
{
	printf("MARK %s\n", what);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *path = "/tmp/open_close.bench";
	unsigned long iterations = 100000, reps = 1, i, r;
	unsigned long long start, end;
	int opt, fd, want_rseq = 0, rseq = __rseq_size > 0;

	while ((opt = getopt(argc, argv, "n:r:f:s")) != -1) {
		switch (opt) {
		case 'n':
			iterations = parse_count(optarg);
			break;
		case 'r':
			reps = parse_count(optarg);
			break;
		case 'f':
			path = optarg;
			break;
		case 's':
			want_rseq = 1;
			break;
		default:
			print_usage();
		}
	}
	if (optind != argc)
		print_usage();
	if (want_rseq && !rseq) {
		fprintf(stderr, "open_close: -s: no rseq registration (CONFIG_RSEQ off?)\n");
		return 1;
	}

	fd = open(path, O_RDWR | O_CREAT, 0644);
	if (fd < 0 || close(fd)) {
		fprintf(stderr, "open_close: %s: %s\n", path, strerror(errno));
		return 1;
	}

	for (r = 0; r < reps; r++) {
		mark("begin");
		start = now_ns();
		for (i = 0; i < iterations; i++) {
			fd = open(path, O_RDONLY);
			if (fd < 0) {
				fprintf(stderr, "open_close: open %s: %s\n",
					path, strerror(errno));
				return 1;
			}
			if (close(fd)) {
				fprintf(stderr, "open_close: close: %s\n",
					strerror(errno));
				return 1;
			}
		}
		end = now_ns();
		mark("end");
		printf("RESULT open_close n=%lu rep=%lu ns=%llu ns_per_iter=%llu rseq=%d\n",
		       iterations, r, end - start, (end - start) / iterations, rseq);
		fflush(stdout);
	}
	return 0;
}
