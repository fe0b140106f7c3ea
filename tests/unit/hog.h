/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A memory hog for the real-kernel tests: a child that blocks until told
 * (so it can be put in a cgroup first), dirties bytes of anonymous memory
 * with random words (zram cannot store them as same-filled pages),
 * reports, and waits to be killed.
 */
#ifndef MMF_TEST_HOG_H
#define MMF_TEST_HOG_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "tap.h"

static pid_t hog_start(size_t bytes, int *go_fd, int *ready_fd)
{
	int go[2], ready[2];
	pid_t pid;

	CHECK(!pipe2(go, O_CLOEXEC) && !pipe2(ready, O_CLOEXEC), "pipe: %s", strerror(errno));
	pid = fork();
	CHECK(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		uint64_t x = 88172645463325252ULL, *p;
		char c;

		prctl(PR_SET_PDEATHSIG, SIGKILL);	/* never outlive the test */
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(2);
		for (size_t i = 0; i < bytes / 8; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			p[i] = x;
		}
		if (write(ready[1], "r", 1) != 1)
			_exit(3);
		pause();
		_exit(0);
	}
	close(go[0]);
	close(ready[1]);
	*go_fd = go[1];
	*ready_fd = ready[0];
	return pid;
}

/* 1: the hog reported ready; 0: it died first. */
static int hog_ready(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char c;

	CHECK(poll(&pfd, 1, 120 * 1000) == 1, "hog neither ready nor dead after 120 s");
	return read(fd, &c, 1) == 1;
}

#endif
