/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The place family: where pages live rather than what they hold. mbind,
 * move_pages and migrate_pages by raw syscall(2) (libnuma is not needed and
 * the C library has no wrappers); compaction through procfs. Node masks are
 * one word: node N is bit N, maxnode is 65 because the kernel reads
 * maxnode - 1 bits.
 */
#ifndef MMF_RUNTIME_PLACE_H
#define MMF_RUNTIME_PLACE_H

#include "runtime/base.h"

#define RT_MASK_BITS	65L
/* The most pages move_pages() moves at once: a slot's. */
#define RT_MOVE_PAGES	1024

/* mbind() to node, or (node -1) the policy without nodes. */
static inline long rt_mbind(void *addr, long len, int mode, int node, int flags)
{
	unsigned long mask = node >= 0 ? 1ul << node : 0;

	return rt_ret(syscall(SYS_mbind, addr, len, (long)mode, node >= 0 ? &mask : NULL,
			      node >= 0 ? RT_MASK_BITS : 0L, (long)flags));
}

/* All n pages from addr to one node, or (node -1) only where they are. */
static inline long rt_move_pages(long pid, char *addr, int n, long psz, int node)
{
	static __thread void *pages[RT_MOVE_PAGES];
	static __thread int nodes[RT_MOVE_PAGES], status[RT_MOVE_PAGES];

	if (pid < 0)
		return pid;
	if (n > RT_MOVE_PAGES)
		return -E2BIG;
	for (int i = 0; i < n; i++) {
		pages[i] = addr + (long)i * psz;
		nodes[i] = node;
	}
	return rt_ret(syscall(SYS_move_pages, pid, (long)n, pages, node >= 0 ? nodes : NULL, status,
			      0L));
}

static inline long rt_migrate_pages(long pid, int from, int to)
{
	unsigned long f = 1ul << from, t = 1ul << to;

	if (pid < 0)
		return pid;
	return rt_ret(syscall(SYS_migrate_pages, pid, RT_MASK_BITS, &f, &t));
}

/* Compaction of all zones (root only): migrates movable pages, ours too. */
static inline long rt_compact(void)
{
	return rt_put_file("/proc/sys/vm/compact_memory", "1");
}

#endif
