// SPDX-License-Identifier: GPL-2.0
/*
 * exit_files - time the exit of a process that holds many open files.
 *
 * Every final fput() of an exiting task is deferred with task_work_add()
 * and run by exit_task_work(), so this measures how task_work_run() copes
 * with a very long list (one work per file).
 *
 * The parent raises RLIMIT_NOFILE (and fs.nr_open if needed), forks a
 * child that open()s the same tmpfs file N times (every open() makes a
 * new struct file, unlike dup()), and, once the child says it is ready,
 * times SIGKILL -> waitpid() with CLOCK_MONOTONIC. Under QEMU
 * -icount shift=0 that clock counts guest instructions (1 ns each).
 *
 * Output, one line per repetition, parsed by bench/run:
 *   MARK begin
 *   MARK end
 *   RESULT exit_files n=<files> rep=<i> ns=<nanoseconds>
 *
 * Usage: exit_files [-n FILES] [-r REPS] [-f PATH]
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("exit_files: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (errno)
		fprintf(stderr, ": %s", strerror(errno));
	fputc('\n', stderr);
	exit(1);
}

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

	rl.rlim_cur = nr_open;
	rl.rlim_max = nr_open;
	errno = 0;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("setrlimit(RLIMIT_NOFILE, %lu)", nr_open);
}

/* Child: open @path @nfiles times, report readiness on @wfd, then wait. */
static void child(const char *path, long nfiles, int wfd)
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

static long long one_run(const char *path, long nfiles)
{
	long long t0, t1;
	int pfd[2], status;
	pid_t pid;
	char c;

	if (pipe(pfd))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(pfd[0]);
		child(path, nfiles, pfd[1]);
	}
	close(pfd[1]);
	if (read(pfd[0], &c, 1) != 1)
		die("child %d did not get ready", pid);
	close(pfd[0]);

	printf("MARK begin\n");
	fflush(stdout);
	t0 = now_ns();
	if (kill(pid, SIGKILL))
		die("kill");
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	t1 = now_ns();
	printf("MARK end\n");
	fflush(stdout);

	errno = 0;
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
		die("child %d ended with status %#x, not SIGKILL", pid, status);
	return t1 - t0;
}

int main(int argc, char **argv)
{
	const char *path = "/tmp/exit_files.dat";
	long nfiles = 1000000, reps = 1, i;
	int opt, fd;

	while ((opt = getopt(argc, argv, "n:r:f:")) != -1) {
		switch (opt) {
		case 'n':
			nfiles = strtol(optarg, NULL, 0);
			break;
		case 'r':
			reps = strtol(optarg, NULL, 0);
			break;
		case 'f':
			path = optarg;
			break;
		default:
			errno = 0;
			die("usage: exit_files [-n FILES] [-r REPS] [-f PATH]");
		}
	}
	errno = 0;
	if (nfiles < 1 || reps < 1)
		die("FILES and REPS must be positive");

	fd = open(path, O_RDWR | O_CREAT, 0644);
	if (fd < 0)
		die("create %s", path);
	close(fd);
	raise_nofile(nfiles);

	for (i = 1; i <= reps; i++) {
		long long ns = one_run(path, nfiles);

		printf("RESULT exit_files n=%ld rep=%ld ns=%lld\n", nfiles, i, ns);
		fflush(stdout);
	}
	return 0;
}
