/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf event mmfuzz opens: a task-bound dummy software event, which
 * counts nothing and costs nothing, but whose ring buffer the kernel backs
 * with its own pages (special_map) and whose first opening turns on the
 * perf_sched_events jump label. kvm/perf-hold.c, the guest's own small
 * program, opens the same event without linking mmfuzz.
 */
#ifndef MMF_RUNTIME_PERF_H
#define MMF_RUNTIME_PERF_H

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/base.h"

/* The event's fd (close-on-exec), or -errno. */
static inline int rt_perf_dummy_open(void)
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

/*
 * special_map: the ring buffer of perf event fd at addr, the most pages
 * that fit in n of psz bytes as 1 + 2^k (a control page, then data). The
 * model does not predict these pages, but mlock, madvise and the rest
 * treat them like any other mapping. The pages mapped, or -errno.
 */
static inline long rt_perf_map(char *addr, int n, long psz, int fd)
{
	long pages, r;

	if (fd < 0)
		return fd;
	for (pages = 1; pages * 2 + 1 <= n; pages *= 2)
		;
	pages = n == 1 ? 1 : pages + 1;
	r = rt_mmap_at(addr, pages * psz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	return r < 0 ? r : pages;
}

#endif
