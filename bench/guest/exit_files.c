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
#include "files.h"
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>

static long long one_run(const char *path, long nfiles)
{
	long long t0, t1;
	int status;
	pid_t pid;

	pid = spawn_holder(path, nfiles);

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
