// SPDX-License-Identifier: GPL-2.0
/*
 * open_close - time a tight open(2)+close(2) loop on one file.
 *
 * Usage: open_close [ITERATIONS [PATH]]
 *
 * PATH (default /tmp/open_close.bench) is created if needed; put it on a
 * tmpfs so that only the VFS open/close path is measured.  Follows the
 * bench/run guest protocol: "MARK begin" and "MARK end" around the timed
 * loop (the host stamps them for the wall clock), then one result line:
 *
 *   RESULT open_close iterations=N ns=T ns_per_iter=P
 *
 * Under QEMU with -icount shift=0,sleep=off guest time advances one
 * nanosecond per instruction, so T is an instruction count there.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
	unsigned long iterations = 100000;
	const char *path = "/tmp/open_close.bench";
	unsigned long long start, end;
	unsigned long i;
	char *endp;
	int fd;

	if (argc > 1) {
		errno = 0;
		iterations = strtoul(argv[1], &endp, 10);
		if (errno || *endp || !iterations) {
			fprintf(stderr, "open_close: bad iteration count '%s'\n",
				argv[1]);
			return 2;
		}
	}
	if (argc > 2)
		path = argv[2];
	if (argc > 3) {
		fprintf(stderr, "usage: open_close [ITERATIONS [PATH]]\n");
		return 2;
	}

	fd = open(path, O_RDWR | O_CREAT, 0644);
	if (fd < 0 || close(fd)) {
		fprintf(stderr, "open_close: %s: %s\n", path, strerror(errno));
		return 1;
	}

	mark("begin");
	start = now_ns();
	for (i = 0; i < iterations; i++) {
		fd = open(path, O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "open_close: open %s: %s\n", path,
				strerror(errno));
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

	printf("RESULT open_close iterations=%lu ns=%llu ns_per_iter=%llu\n",
	       iterations, end - start, (end - start) / iterations);
	return 0;
}
