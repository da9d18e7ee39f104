// SPDX-License-Identifier: GPL-2.0
/*
 * exit_latency - the longest wait a runnable task sees while another task
 * exits holding many open files.
 *
 * An exiting task closes every file in close_files() and runs one
 * task_work per final fput() in exit_task_work(); reversing that list into
 * FIFO order is one more pass over it. With one CPU and no kernel
 * preemption (tinyconfig's PREEMPT_NONE), a second runnable task gets the
 * CPU back only once the tick has marked the exiting task for rescheduling
 * and it reaches a cond_resched(). The largest gap the second task sees
 * between two readings of its clock is therefore a whole number of ticks
 * plus the longest stretch the exit runs without a cond_resched(): it
 * grows when such a stretch outlasts a tick (CONFIG_HZ=250 in the bench
 * kernel: 4 ms, 4,000,000 instructions), as a reversal of 1,000,000
 * works with no cond_resched() would; shorter stretches do not show.
 *
 * The parent raises RLIMIT_NOFILE, forks a victim that open()s the same
 * tmpfs file N times, and an observer that reads CLOCK_MONOTONIC in a
 * loop. Once both are ready it notes the time, SIGKILLs the victim, waits
 * for it and stops the observer, which reports the largest gap that ended
 * after that time (counted from it, not from the observer's reading
 * before) and how many readings it took meanwhile. Fewer than three means
 * the observer never ran during the exit and the gap is the exit's whole
 * duration: an error, not a latency. Under QEMU -icount shift=0 the clock
 * counts guest instructions (1 ns each).
 *
 * Output, one group per repetition, parsed by bench/run:
 *   MARK begin
 *   MARK end
 *   RESULT exit_latency n=<files> rep=<i> ns=<largest gap> samples=<readings>
 *          reap_ns=<kill to reaped, with the observer taking its share of the CPU>
 *
 * Usage: exit_latency [-n FILES] [-r REPS] [-f PATH]
 */
#include "files.h"
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>

/*
 * Shared between the parent and the observer (a MAP_SHARED page), read and
 * written with __atomic builtins.
 */
struct shared {
	int ready;		/* the observer is spinning */
	long long go;		/* when the parent kills the victim, or 0 */
	int stop;		/* the victim has been reaped */
	long long max_gap;	/* largest gap ending after go */
	long samples;		/* readings taken between go and stop */
};

#define LOAD(x)		__atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define STORE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELEASE)

static long count(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 1) {
		errno = 0;
		die("-n and -r want a positive integer, not '%s'", s);
	}
	return v;
}

/*
 * Spin on the clock; keep the largest gap that ends after go, counted from
 * go at the earliest. The reading that sees stop ends the last gap.
 */
static void observer(struct shared *sh)
{
	long long prev, t, go, max = 0;
	long samples = 0;
	int stop;

	prev = now_ns();
	STORE(sh->ready, 1);
	do {
		stop = LOAD(sh->stop);
		t = now_ns();
		go = LOAD(sh->go);
		if (go) {
			if (prev < go)
				prev = go;
			if (t - prev > max)
				max = t - prev;
			samples++;
		}
		prev = t;
	} while (!stop);
	STORE(sh->samples, samples);
	STORE(sh->max_gap, max);
	_exit(0);
}

static void one_run(const char *path, long nfiles, struct shared *sh,
		    long long *gap, long *samples, long long *reap_ns)
{
	pid_t vpid, opid;
	long long t0, t1;
	int status;

	memset(sh, 0, sizeof(*sh));
	vpid = spawn_holder(path, nfiles);

	opid = fork();
	if (opid < 0)
		die("fork");
	if (opid == 0)
		observer(sh);
	while (!LOAD(sh->ready)) {
		if (waitpid(opid, NULL, WNOHANG) == opid)
			die("observer %d died before it was ready", opid);
		sched_yield();
	}

	printf("MARK begin\n");
	fflush(stdout);
	t0 = now_ns();
	STORE(sh->go, t0);
	if (kill(vpid, SIGKILL))
		die("kill");
	if (waitpid(vpid, &status, 0) != vpid)
		die("waitpid victim");
	t1 = now_ns();
	STORE(sh->stop, 1);
	if (waitpid(opid, NULL, 0) != opid)
		die("waitpid observer");
	printf("MARK end\n");
	fflush(stdout);

	errno = 0;
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
		die("victim %d ended with status %#x, not SIGKILL", vpid, status);
	*gap = LOAD(sh->max_gap);
	*samples = LOAD(sh->samples);
	*reap_ns = t1 - t0;
	if (*samples < 3)
		die("observer ran %ld times during the exit: no latency (more files?)",
		    *samples);
}

int main(int argc, char **argv)
{
	const char *path = "/tmp/exit_latency.dat";
	long nfiles = 1000000, reps = 1, i;
	struct shared *sh;
	int opt, fd;

	while ((opt = getopt(argc, argv, "n:r:f:")) != -1) {
		switch (opt) {
		case 'n':
			nfiles = count(optarg);
			break;
		case 'r':
			reps = count(optarg);
			break;
		case 'f':
			path = optarg;
			break;
		default:
			errno = 0;
			die("usage: exit_latency [-n FILES] [-r REPS] [-f PATH]");
		}
	}
	errno = 0;
	if (optind != argc)
		die("usage: exit_latency [-n FILES] [-r REPS] [-f PATH]");

	fd = open(path, O_RDWR | O_CREAT, 0644);
	if (fd < 0)
		die("create %s", path);
	close(fd);
	raise_nofile(nfiles);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		die("mmap");

	for (i = 1; i <= reps; i++) {
		long long gap, reap_ns;
		long samples;

		one_run(path, nfiles, sh, &gap, &samples, &reap_ns);
		printf("RESULT exit_latency n=%ld rep=%ld ns=%lld samples=%ld reap_ns=%lld\n",
		       nfiles, i, gap, samples, reap_ns);
		fflush(stdout);
	}
	return 0;
}
