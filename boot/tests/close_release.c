// SPDX-License-Identifier: GPL-2.0
/*
 * close_release - the final close(2) of a file must have released it
 * (->release run, fsnotify close event sent, locks dropped, mount no longer
 * busy) by the time close() returns to user space.  This is the contract
 * that a deferred fput() must keep and that fput_nodefer() in close(2) makes
 * synchronous.  Runs as a guest test of the safer-fput boot gate.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

FIXTURE(tmpmnt) {
	char dir[64];
	char file[PATH_MAX];
};

FIXTURE_SETUP(tmpmnt)
{
	snprintf(self->dir, sizeof(self->dir), "/tmp/close_release.%d",
		 getpid());
	snprintf(self->file, sizeof(self->file), "%s/f", self->dir);
	ASSERT_EQ(0, mkdir(self->dir, 0700));
	ASSERT_EQ(0, mount("none", self->dir, "tmpfs", 0, "size=1m"))
		TH_LOG("mount tmpfs: %s", strerror(errno));
}

FIXTURE_TEARDOWN(tmpmnt)
{
	umount2(self->dir, MNT_DETACH);
	rmdir(self->dir);
}

/* IN_CLOSE_WRITE is queued by __fput(): it must be readable right away. */
TEST_F(tmpmnt, inotify_close_write_before_return)
{
	char buf[sizeof(struct inotify_event) + NAME_MAX + 1];
	struct inotify_event *ev = (struct inotify_event *)buf;
	int in, fd, i;

	in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	ASSERT_GE(in, 0);
	fd = open(self->file, O_CREAT | O_WRONLY, 0600);
	ASSERT_GE(fd, 0);
	ASSERT_GE(inotify_add_watch(in, self->file, IN_CLOSE_WRITE), 0);
	for (i = 0; i < 100; i++) {
		int again = dup(fd);

		ASSERT_GE(again, 0);
		ASSERT_EQ(0, close(again));
	}
	/* Only the dups were closed: the file is still open, no event. */
	EXPECT_EQ(-1, read(in, buf, sizeof(buf)));
	EXPECT_EQ(EAGAIN, errno);
	ASSERT_EQ(0, close(fd));
	/* Non-blocking read: the event must already be queued. */
	ASSERT_GE(read(in, buf, sizeof(buf)), (ssize_t)sizeof(*ev));
	EXPECT_TRUE(ev->mask & IN_CLOSE_WRITE);
	close(in);
}

/* The last reference to a file on a mount keeps it busy until released. */
TEST_F(tmpmnt, umount_right_after_close)
{
	int fd, i;

	for (i = 0; i < 50; i++) {
		fd = open(self->file, O_CREAT | O_RDWR, 0600);
		ASSERT_GE(fd, 0);
		ASSERT_EQ(1, write(fd, "x", 1));
		ASSERT_EQ(0, close(fd));
		ASSERT_EQ(0, umount2(self->dir, 0))
			TH_LOG("round %d: umount after close: %s", i,
			       strerror(errno));
		ASSERT_EQ(0, mount("none", self->dir, "tmpfs", 0, "size=1m"));
	}
}

/* flock() locks belong to the open file: the final close drops them. */
TEST_F(tmpmnt, flock_released_by_close)
{
	int a, b, i;

	b = open(self->file, O_CREAT | O_RDWR, 0600);
	ASSERT_GE(b, 0);
	for (i = 0; i < 50; i++) {
		a = open(self->file, O_RDWR);
		ASSERT_GE(a, 0);
		ASSERT_EQ(0, flock(a, LOCK_EX));
		EXPECT_EQ(-1, flock(b, LOCK_EX | LOCK_NB));
		ASSERT_EQ(0, close(a));
		ASSERT_EQ(0, flock(b, LOCK_EX | LOCK_NB))
			TH_LOG("round %d: lock still held after close", i);
		ASSERT_EQ(0, flock(b, LOCK_UN));
	}
	close(b);
}

static void *close_fd(void *arg)
{
	return (void *)(long)close(*(int *)arg);
}

/* A close() from another thread of the process: same guarantee. */
TEST_F(tmpmnt, close_in_thread_then_umount)
{
	pthread_t th;
	void *ret;
	int fd;

	fd = open(self->file, O_CREAT | O_RDWR, 0600);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pthread_create(&th, NULL, close_fd, &fd));
	ASSERT_EQ(0, pthread_join(th, &ret));
	ASSERT_EQ(0, (long)ret);
	EXPECT_EQ(0, umount2(self->dir, 0))
		TH_LOG("umount after close in thread: %s", strerror(errno));
	mount("none", self->dir, "tmpfs", 0, "size=1m");
}

/* Files still open at exit are released before the parent's wait returns. */
TEST_F(tmpmnt, exit_releases_files)
{
	int status, i;
	pid_t pid;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		for (i = 0; i < 200; i++)
			if (open(self->file, O_CREAT | O_RDWR, 0600) < 0)
				_exit(1);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, umount2(self->dir, 0))
		TH_LOG("umount after child exit: %s", strerror(errno));
	mount("none", self->dir, "tmpfs", 0, "size=1m");
}

TEST_HARNESS_MAIN
