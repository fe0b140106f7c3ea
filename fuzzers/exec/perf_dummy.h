/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf event mmfuzz opens: a task-bound dummy software event, which
 * counts nothing and costs nothing, but whose ring buffer the kernel backs
 * with its own pages (special_map) and whose first opening turns on the
 * perf_sched_events jump label. Header-only: kvm/perf-hold.c, the guest's
 * own small program, opens the same event without linking mmfuzz.
 */
#ifndef MMF_EXEC_PERF_DUMMY_H
#define MMF_EXEC_PERF_DUMMY_H

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The event's fd (close-on-exec), or -errno. */
static inline int mmf_perf_dummy_open(void)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.exclude_kernel = 1;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

#endif
