// SPDX-License-Identifier: GPL-2.0
/*
 * task_work_reverse.c - what reversing the task_work list costs on this CPU.
 *
 * A user-space replica of task_work_run()'s loops over the works a task
 * exiting with N open files has queued: one final fput() each, each work a
 * struct callback_head embedded in its struct file (f_task_work).
 * Patch 1 of the series reverses that list (newest first, as
 * task_work_add() pushes on its head) before running it, so that the works
 * run in FIFO order; c82199061009 ("task_work: remove fifo ordering
 * guarantee", 2015) had dropped the reversal after it took 275 ms for
 * 2,000,000 files. The cost is memory latency: one more pass over N cold
 * struct files. QEMU TCG (make bench) does not model caches; this runs the
 * same loops on the host's CPU and memory.
 *
 *   task_work_reverse [-r RUNS] [-f FLUSH_MIB] [-s SLAB_OBJS] [N...]
 *
 * N: number of files (default 1000000 2000000); RUNS: repetitions per N
 * (default 5); FLUSH_MIB: the cache-flushing buffer (default 4 x the LLC).
 * The files are laid out as a slab hands them out: one after the other,
 * ascending; with -s, in a random order within each run of SLAB_OBJS of
 * them, as SLUB does with CONFIG_SLAB_FREELIST_RANDOM (most distribution
 * kernels; 7.3's filp slab holds 21 objects with up to 15 CPUs, 42 with
 * 16 to 511: mm/slub.c calculate_order()).
 * Per N and repetition, from cold caches each:
 *   LIFO  run the list as taken (upstream since 2015),
 *   FIFO  reverse it (patch 1's loop), then run it;
 * the reversal is timed on its own inside the FIFO run. The two runs of a
 * repetition alternate which goes first (LIFO, FIFO, then FIFO, LIFO, ...)
 * so that drift hits both. Prints two header lines (CPU, LLC, load average;
 * struct file layout, flush buffer, huge pages), then one "run" line per
 * repetition and one "median" line per N:
 *   run N=1000000 rep=1 first=LIFO lifo_ms=.. fifo_ms=.. reverse_ms=.. fifo_run_ms=..
 *   median N=1000000 runs=5 lifo_ms=.. fifo_ms=.. ratio=.. reverse_ms=.. reverse_ns_per_file=..
 * ratio is median FIFO / median LIFO. Each run checks that the callbacks
 * saw every file once, in the order wanted (descending fd for LIFO,
 * ascending for FIFO). One-line errors on stderr, exit 1.
 *
 * Build: gcc -O2 -DFILP_OBJECT_SIZE=.. -DF_TASK_WORK_OFFSET=.. (the values
 * of bench/replica/struct-file.conf; make bench-replica passes them).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#if !defined(FILP_OBJECT_SIZE) || !defined(F_TASK_WORK_OFFSET)
#error "build with -DFILP_OBJECT_SIZE=.. -DF_TASK_WORK_OFFSET=.. (bench/replica/struct-file.conf)"
#endif

#define noinline	__attribute__((__noinline__))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define CACHE_LINE	64
#define FLUSH_FACTOR	4
#define MIN_FLUSH	(64UL << 20)
#define MAX_N		100000000UL
#define MAX_RUNS	1000UL
/* include/linux/fs.h: what f_mode holds for a file open for reading */
#define FMODE_READ	0x1U
#define FMODE_OPENED	0x80000U

/* include/linux/types.h */
struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
};

/*
 * One "filp" slab object: what __fput() reads first at its head (f_mode;
 * f_fd stands where f_op is and tells the callback which file it got),
 * the callback_head where 7.3 has f_task_work (in a union with the slab
 * free pointer, f_freeptr), padded to the slab's object size. The array
 * of them is laid out as a slab hands them out: one after the other,
 * FILP_OBJECT_SIZE apart.
 */
struct file {
	unsigned int		f_lock;
	unsigned int		f_mode;
	unsigned long		f_fd;
	char			__pad0[F_TASK_WORK_OFFSET - 16];
	union {
		struct callback_head	f_task_work;
		void			*f_freeptr;
	};
	char			__pad1[FILP_OBJECT_SIZE - F_TASK_WORK_OFFSET -
				       sizeof(struct callback_head)];
};

_Static_assert(sizeof(struct file) == FILP_OBJECT_SIZE, "FILP_OBJECT_SIZE");
_Static_assert(offsetof(struct file, f_task_work) == F_TASK_WORK_OFFSET,
	       "F_TASK_WORK_OFFSET");
_Static_assert(FILP_OBJECT_SIZE % CACHE_LINE == 0,
	       "a SLAB_HWCACHE_ALIGN object is a whole number of lines");

static char *flush_buf;
/* With -s: the object that file (fd) i gets. */
static size_t *slab_order;
static size_t flush_size;
static unsigned long fput_sum;
static void *freelist;

/* Print "task_work_reverse: error: message[: strerror]" and exit 1. */
static void die(int err, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
	exit(1);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The kernel's cond_resched(): a call, here one that does nothing. */
static noinline void cond_resched(void)
{
	__asm__ __volatile__("" ::: "memory");
}

/*
 * ____fput() -> __fput(): read the head of the file (f_mode, f_op, ...),
 * then file_free() -> kmem_cache_free(), which links the object into a
 * slab freelist through the cache's free pointer offset, 7.3's f_freeptr,
 * in the union with f_task_work. (7.3 first parks the object in a per-CPU
 * sheaf, 60 objects for filp, and writes those free pointers when a
 * full sheaf goes back to its slabs: onto lines just touched, as here.)
 * The sum folds in the order the files came in, for the check after the
 * run. The real __fput() also reads f_path (the second line) and the
 * file's inode, dentry and mount: a heavier walk, the same for LIFO and
 * FIFO.
 */
static noinline void fput_work(struct callback_head *work)
{
	struct file *file = container_of(work, struct file, f_task_work);

	fput_sum = fput_sum * 31 + (file->f_fd ^ file->f_mode);
	file->f_freeptr = freelist;
	freelist = file;
}

/* What fput_work() sums when it sees files 0..n-1 ascending or descending. */
static unsigned long expected_sum(const struct file *files, size_t n, int ascending)
{
	unsigned long sum = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		size_t fd = ascending ? i : n - 1 - i;
		const struct file *file = &files[slab_order ? slab_order[fd] : fd];

		sum = sum * 31 + (file->f_fd ^ file->f_mode);
	}
	return sum;
}

/*
 * close_files() puts fds 0, 1, 2, ... in turn; each final fput() does
 * init_task_work() and task_work_add(), which pushes on the head of
 * task->task_works. task_work_run() then takes the whole list, newest
 * (highest fd) first.
 */
static struct callback_head *queue_files(struct file *files, size_t n)
{
	struct callback_head *head = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		struct callback_head *work = &files[slab_order ? slab_order[i] : i].f_task_work;

		work->func = fput_work;
		work->next = head;
		head = work;
	}
	return head;
}

/* Patch 1's task_work_reverse(), line for line. */
static noinline struct callback_head *task_work_reverse(struct callback_head *work)
{
	struct callback_head *prev = NULL, *next;
	unsigned int n = 0;

	do {
		next = work->next;
		work->next = prev;
		prev = work;
		work = next;
		if (!(++n % 1024))
			cond_resched();
	} while (work);

	return prev;
}

/* task_work_run()'s loop over the list it took. */
static noinline void task_work_run_list(struct callback_head *work)
{
	struct callback_head *next;

	do {
		next = work->next;
		work->func(work);
		work = next;
		cond_resched();
	} while (work);
}

/*
 * Make every line of the files cold: write each cache line of a buffer
 * FLUSH_FACTOR times the size of the last-level cache, which evicts (and
 * writes back) all of them from L1, L2 and the LLC. That is the kernel's
 * case: 2,000,000 files are 2,000,000 192-byte filp objects, 384 MB, beyond
 * any LLC a core can use (tens of MB per core complex on today's servers),
 * and task_work_run() walks lines last touched by close_files() long
 * before. (close_files() does touch each file just before, in filp_flush()
 * and in the fput() that queues it, so in the kernel up to the last LLC's
 * worth of them may still be cached when the run starts; all cold is the
 * bound that charges the reversal its full memory cost.) The buffer's
 * lines are left dirty: whichever run follows evicts them alike.
 */
static void flush_caches(void)
{
	static unsigned char pass;
	size_t i;

	pass++;
	for (i = 0; i < flush_size; i += CACHE_LINE)
		flush_buf[i] = (char)(pass + i);
	__asm__ __volatile__("" : : "r"(flush_buf) : "memory");
}

/* The size in bytes of a sysfs cache "size" value: "32768K", "32M". */
static size_t parse_cache_size(const char *s)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (*end == 'K')
		return v << 10;
	if (*end == 'M')
		return v << 20;
	return v;
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return 0;
	ok = !!fgets(buf, (int)len, f);
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/*
 * The last-level cache: the highest level of cpu0's data or unified caches
 * in sysfs; where sysfs has none (some VMs), what glibc reads from CPUID.
 */
static size_t llc_size(const char **source)
{
	const char *dir = "/sys/devices/system/cpu/cpu0/cache";
	char path[512], buf[64];
	size_t best = 0;
	int best_level = 0;
	struct dirent *de;
	DIR *d = opendir(dir);
	long v;

	if (d) {
		while ((de = readdir(d))) {
			int level;
			size_t size;

			if (strncmp(de->d_name, "index", 5))
				continue;
			snprintf(path, sizeof(path), "%s/%s/type", dir, de->d_name);
			if (!read_line(path, buf, sizeof(buf)) || !strcmp(buf, "Instruction"))
				continue;
			snprintf(path, sizeof(path), "%s/%s/level", dir, de->d_name);
			if (!read_line(path, buf, sizeof(buf)))
				continue;
			level = atoi(buf);
			snprintf(path, sizeof(path), "%s/%s/size", dir, de->d_name);
			if (!read_line(path, buf, sizeof(buf)))
				continue;
			size = parse_cache_size(buf);
			if (level > best_level && size) {
				best_level = level;
				best = size;
			}
		}
		closedir(d);
		if (best) {
			*source = "sysfs";
			return best;
		}
	}
	v = sysconf(_SC_LEVEL3_CACHE_SIZE);
	if (v <= 0)
		v = sysconf(_SC_LEVEL2_CACHE_SIZE);
	*source = v > 0 ? "cpuid" : "unknown";
	return v > 0 ? (size_t)v : 0;
}

/* A THP-backed, pre-faulted, anonymous mapping (the kernel's direct map uses huge pages). */
static void *map(size_t size, const char *what)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die(errno, "cannot allocate %s (%zu MiB)", what, size >> 20);
#ifdef MADV_HUGEPAGE
	madvise(p, size, MADV_HUGEPAGE);
#endif
	memset(p, 0, size);
	return p;
}

/* "AnonHugePages" of /proc/self/smaps_rollup, in MiB; -1 if unknown. */
static long thp_mib(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb < 0 ? -1 : kb >> 10;
}

/* The "model name" of /proc/cpuinfo's first CPU, "?" if none. */
static const char *cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	const char *model = "?";
	char *colon;

	if (!f)
		return model;
	while (fgets(buf, (int)len, f)) {
		if (strncmp(buf, "model name", 10))
			continue;
		colon = strchr(buf, ':');
		if (!colon)
			continue;
		buf[strcspn(buf, "\n")] = '\0';
		model = colon + 1 + strspn(colon + 1, " \t");
		break;
	}
	fclose(f);
	return model;
}

/* A decimal number in 1..max, digits only. */
static unsigned long parse_count(const char *s, unsigned long max, const char *what)
{
	unsigned long v;
	char *end;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		die(0, "%s must be a positive integer, got '%s'", what, s);
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || v == 0 || v > max)
		die(0, "%s must be in 1..%lu, got '%s'", what, max, s);
	return v;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static double median_ms(const long long *ns, size_t n)
{
	long long v[MAX_RUNS];

	memcpy(v, ns, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_ll);
	if (n % 2)
		return v[n / 2] / 1e6;
	return (v[n / 2 - 1] + v[n / 2]) / 2e6;
}

/* One cold LIFO run: the list as upstream runs it. */
static long long run_lifo(struct file *files, size_t n, unsigned long want)
{
	struct callback_head *head = queue_files(files, n);
	long long t0, t1;

	flush_caches();
	fput_sum = 0;
	freelist = NULL;
	t0 = now_ns();
	task_work_run_list(head);
	t1 = now_ns();
	if (fput_sum != want)
		die(0, "N=%zu: the LIFO run did not see each file once, newest first", n);
	return t1 - t0;
}

/* One cold FIFO run: patch 1's reversal, then the run; *rev gets the reversal's part. */
static long long run_fifo(struct file *files, size_t n, unsigned long want, long long *rev)
{
	struct callback_head *head = queue_files(files, n);
	long long t0, t1, t2;

	flush_caches();
	fput_sum = 0;
	freelist = NULL;
	t0 = now_ns();
	head = task_work_reverse(head);
	t1 = now_ns();
	task_work_run_list(head);
	t2 = now_ns();
	if (fput_sum != want)
		die(0, "N=%zu: the FIFO run did not see each file once, oldest first", n);
	*rev = t1 - t0;
	return t2 - t0;
}

int main(int argc, char **argv)
{
	static const char *const default_n[] = { "1000000", "2000000" };
	const char *const *ns = default_n;
	size_t nn = 2, max_n = 0, runs = 5, flush_mib = 0, slab_objs = 0, llc, i, r;
	long long lifo[MAX_RUNS], fifo[MAX_RUNS], rev[MAX_RUNS];
	unsigned long sizes[64];
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	const char *llc_source;
	struct file *files;
	char thp[64] = "?", line[256], load[64], layout[64], *p, *q;
	int opt;

	opterr = 0;
	while ((opt = getopt(argc, argv, "r:f:s:")) != -1) {
		switch (opt) {
		case 'r':
			runs = parse_count(optarg, MAX_RUNS, "RUNS (-r)");
			break;
		case 'f':
			flush_mib = parse_count(optarg, 1UL << 20, "FLUSH_MIB (-f)");
			break;
		case 's':
			slab_objs = parse_count(optarg, 1UL << 20, "SLAB_OBJS (-s)");
			break;
		default:
			die(0, "usage: %s [-r RUNS] [-f FLUSH_MIB] [-s SLAB_OBJS] [N...]",
			    program_invocation_short_name);
		}
	}
	if (optind < argc) {
		ns = (const char *const *)&argv[optind];
		nn = argc - optind;
	}
	if (nn > ARRAY_SIZE(sizes))
		die(0, "at most %zu sizes, got %zu", ARRAY_SIZE(sizes), nn);
	for (i = 0; i < nn; i++) {
		sizes[i] = parse_count(ns[i], MAX_N, "N");
		if (sizes[i] > max_n)
			max_n = sizes[i];
	}

	llc = llc_size(&llc_source);
	flush_size = flush_mib ? flush_mib << 20 : FLUSH_FACTOR * llc;
	if (flush_size < MIN_FLUSH && !flush_mib)
		flush_size = MIN_FLUSH;
	/* A refusal beats the OOM killer. */
	if (pages > 0 && page > 0 &&
	    max_n * sizeof(struct file) + flush_size > (size_t)pages * page / 2)
		die(0, "N=%zu files (%zu MiB) and a %zu MiB flush buffer need more than half of RAM (%ld MiB)",
		    max_n, max_n * sizeof(struct file) >> 20, flush_size >> 20,
		    (long)((size_t)pages * page >> 20));

	files = map(max_n * sizeof(struct file), "the files");
	flush_buf = map(flush_size, "the flush buffer");
	if (slab_objs > 1) {
		slab_order = malloc(max_n * sizeof(*slab_order));
		if (!slab_order)
			die(errno, "cannot allocate the slab order");
		for (i = 0; i < max_n; i++)
			slab_order[i] = i;
		/* Fisher-Yates within each full slab, the same order every time. */
		srandom(1);
		for (i = 0; i + slab_objs <= max_n; i += slab_objs) {
			for (r = slab_objs - 1; r > 0; r--) {
				size_t k = (size_t)random() % (r + 1), t = slab_order[i + r];

				slab_order[i + r] = slab_order[i + k];
				slab_order[i + k] = t;
			}
		}
	}
	for (i = 0; i < max_n; i++) {
		struct file *file = &files[slab_order ? slab_order[i] : i];

		file->f_mode = FMODE_READ | FMODE_OPENED;
		file->f_fd = i;
	}
	if (slab_objs > 1)
		snprintf(layout, sizeof(layout), "random within slabs of %zu", slab_objs);
	else
		snprintf(layout, sizeof(layout), "ascending");
	if (read_line("/sys/kernel/mm/transparent_hugepage/enabled", line, sizeof(line))) {
		p = strchr(line, '[');
		q = p ? strchr(p, ']') : NULL;
		if (q) {
			*q = '\0';
			snprintf(thp, sizeof(thp), "%s", p + 1);
		}
	}
	if (!read_line("/proc/loadavg", load, sizeof(load)))
		snprintf(load, sizeof(load), "?");
	load[strcspn(load, " ")] = '\0';
	printf("task_work_reverse: cpu %s; LLC %.1f MiB (%s); load %s\n",
	       cpu_model(line, sizeof(line)), llc / 1048576.0, llc_source, load);
	printf("task_work_reverse: struct file %zu B, f_task_work at %zu, %s; flush %zu MiB; THP %s, %ld of %zu MiB huge; runs %zu\n",
	       sizeof(struct file), offsetof(struct file, f_task_work), layout,
	       flush_size >> 20, thp, thp_mib(),
	       (max_n * sizeof(struct file) + flush_size) >> 20, runs);
	fflush(stdout);

	for (i = 0; i < nn; i++) {
		size_t n = sizes[i];
		unsigned long want_lifo = expected_sum(files, n, 0);
		unsigned long want_fifo = expected_sum(files, n, 1);
		double ml, mf, mr;

		for (r = 0; r < runs; r++) {
			const char *first;

			if (r % 2 == 0) {
				first = "LIFO";
				lifo[r] = run_lifo(files, n, want_lifo);
				fifo[r] = run_fifo(files, n, want_fifo, &rev[r]);
			} else {
				first = "FIFO";
				fifo[r] = run_fifo(files, n, want_fifo, &rev[r]);
				lifo[r] = run_lifo(files, n, want_lifo);
			}
			printf("run N=%zu rep=%zu first=%s lifo_ms=%.3f fifo_ms=%.3f reverse_ms=%.3f fifo_run_ms=%.3f\n",
			       n, r + 1, first, lifo[r] / 1e6,
			       fifo[r] / 1e6, rev[r] / 1e6, (fifo[r] - rev[r]) / 1e6);
			fflush(stdout);
		}
		ml = median_ms(lifo, runs);
		mf = median_ms(fifo, runs);
		mr = median_ms(rev, runs);
		printf("median N=%zu runs=%zu lifo_ms=%.3f fifo_ms=%.3f ratio=%.3f reverse_ms=%.3f reverse_ns_per_file=%.2f\n",
		       n, runs, ml, mf, mf / ml, mr, mr * 1e6 / n);
		fflush(stdout);
	}
	return 0;
}
