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

/* The most pages of a ring buffer in n: 1 + 2^k (a control page, then data). */
static inline long rt_perf_pages(int n)
{
	long pages;

	for (pages = 1; pages * 2 + 1 <= n; pages *= 2)
		;
	return n == 1 ? 1 : pages + 1;
}

/*
 * special_map: the ring buffer of perf event fd at addr, rt_perf_pages(n)
 * pages of psz bytes. The model does not predict these pages, but mlock,
 * madvise and the rest treat them like any other mapping. The pages
 * mapped, or -errno.
 */
static inline long rt_perf_map(char *addr, int n, long psz, int fd)
{
	long pages = rt_perf_pages(n), r;

	if (fd < 0)
		return fd;
	r = rt_mmap_at(addr, pages * psz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	return r < 0 ? r : pages;
}

#endif
