// SPDX-License-Identifier: GPL-2.0
/*
 * inotify_close_order - the order in which a task's deferred final puts
 * run, as user space sees it: fsnotify_close() runs in __fput(), so the
 * IN_CLOSE_* events of the files a task still holds when it exits, or that
 * close_range() closes, come in the order task_work runs their final
 * fput()s. Both release the descriptors lowest first; with task_work in
 * FIFO order the events follow that order, with LIFO (c82199061009 until
 * the series) they come highest descriptor first. close(2) puts
 * synchronously: its event is queued before close() returns, whatever the
 * order. Runs as a guest test of the safer-fput boot gate; its name sorts
 * after the close_* tests, whose failures a broken release shows first.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define NR_FILES	16

FIXTURE(watched) {
	char dir[64];
	int in;
};

FIXTURE_SETUP(watched)
{
	char path[PATH_MAX];
	int i, fd;

	snprintf(self->dir, sizeof(self->dir), "/tmp/inotify_close_order.%d",
		 getpid());
	ASSERT_EQ(0, mkdir(self->dir, 0700));
	ASSERT_EQ(0, mount("none", self->dir, "tmpfs", 0, "size=1m"))
		TH_LOG("mount tmpfs: %s", strerror(errno));
	for (i = 0; i < NR_FILES; i++) {
		snprintf(path, sizeof(path), "%s/f%02d", self->dir, i);
		fd = open(path, O_CREAT | O_WRONLY, 0600);
		ASSERT_GE(fd, 0);
		ASSERT_EQ(0, close(fd));
	}
	self->in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	ASSERT_GE(self->in, 0);
	ASSERT_GE(inotify_add_watch(self->in, self->dir, IN_CLOSE_NOWRITE), 0);
}

FIXTURE_TEARDOWN(watched)
{
	close(self->in);
	umount2(self->dir, MNT_DETACH);
	rmdir(self->dir);
}

/* Open f00..f15 read-only on ascending descriptors from @base up. */
static int open_all(struct __test_metadata *_metadata, const char *dir,
		    int base)
{
	char path[PATH_MAX];
	int i, fd;

	for (i = 0; i < NR_FILES; i++) {
		snprintf(path, sizeof(path), "%s/f%02d", dir, i);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return -1;
		if (dup2(fd, base + i) != base + i)
			return -1;
		close(fd);
	}
	return 0;
}

/*
 * Read the IN_CLOSE_NOWRITE events now queued and check that they name
 * f00..f15 in ascending order, each once.
 */
static void expect_ascending(struct __test_metadata *_metadata, int in)
{
	char buf[NR_FILES * (sizeof(struct inotify_event) + NAME_MAX + 1)];
	char order[NR_FILES * 4 + 1] = "";
	int n = 0, bad = 0;
	ssize_t len;
	char *p;

	len = read(in, buf, sizeof(buf));
	ASSERT_GT(len, 0) TH_LOG("no close event: %s", strerror(errno));
	for (p = buf; p < buf + len;) {
		struct inotify_event *ev = (struct inotify_event *)p;
		int id;

		p += sizeof(*ev) + ev->len;
		if (!(ev->mask & IN_CLOSE_NOWRITE) || !ev->len ||
		    sscanf(ev->name, "f%d", &id) != 1)
			continue;
		if (id != n)
			bad++;
		if (strlen(order) + 4 < sizeof(order))
			sprintf(order + strlen(order), " %d", id);
		n++;
	}
	EXPECT_EQ(NR_FILES, n);
	EXPECT_EQ(0, bad)
		TH_LOG("IN_CLOSE_NOWRITE order:%s (expected ascending)", order);
}

/* Files a task still holds when it exits: released lowest fd first. */
TEST_F(watched, exit_closes_in_fd_order)
{
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (open_all(_metadata, self->dir, 100))
			_exit(2);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	expect_ascending(_metadata, self->in);
}

/* close_range() closes lowest fd first; the puts run on return to user. */
TEST_F(watched, close_range_closes_in_fd_order)
{
	ASSERT_EQ(0, open_all(_metadata, self->dir, 100));
	ASSERT_EQ(0, syscall(SYS_close_range, 100, 100 + NR_FILES - 1, 0));
	expect_ascending(_metadata, self->in);
}

TEST_HARNESS_MAIN
