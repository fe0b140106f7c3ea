// SPDX-License-Identifier: GPL-2.0
/*
 * The place family: where pages live rather than what they hold. mbind,
 * move_pages and migrate_pages by raw syscall(2) (libnuma is not needed and
 * the C library has no wrappers); compaction through procfs. Node masks are
 * one word: node N is bit N, maxnode is 65 because the kernel reads
 * maxnode - 1 bits.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "exec/calls.h"

#define MASK_BITS	65

/* The pid a target argument names: 0 for this process. */
static long target_pid(const struct mmf_interp *in, uint64_t t)
{
	if (t == MMF_TARGET_SELF)
		return 0;
	return in->kids[t - 1] > 0 ? in->kids[t - 1] : -ESRCH;
}

long mmf_exec_mbind(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	int64_t node = (int64_t)s->args[4];
	unsigned long mask = node >= 0 ? 1ul << node : 0;
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	return mmf_ret(syscall(SYS_mbind, mmf_page_addr(in, idx), (long)n * in->psz, s->args[3],
			   node >= 0 ? &mask : NULL, node >= 0 ? MASK_BITS : 0, s->args[5]));
}

/* All pages of the range to one node, or (node -1) only where they are. */
long mmf_exec_move_pages(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	static __thread void *pages[MMF_SLOT_PAGES];
	static __thread int nodes[MMF_SLOT_PAGES], status[MMF_SLOT_PAGES];
	int64_t node = (int64_t)s->args[4];
	long pid = target_pid(in, s->args[3]);
	int idx, n;

	if (pid < 0)
		return pid;
	mmf_stmt_range(s, &idx, &n);
	for (int i = 0; i < n; i++) {
		pages[i] = mmf_page_addr(in, idx + i);
		nodes[i] = node;
	}
	return mmf_ret(syscall(SYS_move_pages, pid, n, pages, node >= 0 ? nodes : NULL, status, 0));
}

long mmf_exec_migrate_pages(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	unsigned long from = 1ul << s->args[1], to = 1ul << s->args[2];
	long pid = target_pid(in, s->args[0]);

	if (pid < 0)
		return pid;
	return mmf_ret(syscall(SYS_migrate_pages, pid, MASK_BITS, &from, &to));
}

/* Compaction of all zones (root only): migrates movable pages, ours too. */
long mmf_exec_compact(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	int fd = open("/proc/sys/vm/compact_memory", O_WRONLY | O_CLOEXEC);
	long r;

	if (fd < 0)
		return -errno;
	r = mmf_ret(write(fd, "1", 1));
	close(fd);
	return r < 0 ? r : 0;
}
