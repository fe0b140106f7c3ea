// SPDX-License-Identifier: GPL-2.0
/*
 * One descriptor per call. Flag values are the Linux UAPI numbers (the same
 * on x86_64 and arm64), spelled here so that the model does not depend on
 * the C library knowing recent flags: a flag the running kernel lacks is an
 * expected EINVAL, not a build failure.
 */
#include "model/prog.h"
#include "util/util.h"

#define SET(var, str, ...)							\
	static const struct mmf_flag var##_flags[] = { __VA_ARGS__ };		\
	const struct mmf_flag_set var = { str, var##_flags, ARRAY_SIZE(var##_flags) }

SET(mmf_prot_set, "prot",
	{ "PROT_NONE", 0x0 }, { "PROT_READ", 0x1 }, { "PROT_WRITE", 0x2 },
	{ "PROT_EXEC", 0x4 });

/* MAP_SHARED/MAP_PRIVATE are the share argument; MAP_ANONYMOUS the backing. */
SET(mmf_share_set, "share",
	{ "MAP_PRIVATE", 0x02 }, { "MAP_SHARED", 0x01 },
	{ "MAP_SHARED_VALIDATE", 0x03 });

SET(mmf_mmap_set, "mmap",
	{ "MAP_FIXED", 0x10 }, { "MAP_LOCKED", 0x2000 },
	{ "MAP_NORESERVE", 0x4000 }, { "MAP_POPULATE", 0x8000 },
	{ "MAP_NONBLOCK", 0x10000 });

SET(mmf_mremap_set, "mremap",
	{ "MREMAP_MAYMOVE", 0x1 }, { "MREMAP_FIXED", 0x2 },
	{ "MREMAP_DONTUNMAP", 0x4 });

SET(mmf_madv_set, "madvise",
	{ "MADV_NORMAL", 0 }, { "MADV_RANDOM", 1 }, { "MADV_SEQUENTIAL", 2 },
	{ "MADV_WILLNEED", 3 }, { "MADV_DONTNEED", 4 }, { "MADV_FREE", 8 },
	{ "MADV_REMOVE", 9 }, { "MADV_DONTFORK", 10 }, { "MADV_DOFORK", 11 },
	{ "MADV_MERGEABLE", 12 }, { "MADV_UNMERGEABLE", 13 },
	{ "MADV_HUGEPAGE", 14 }, { "MADV_NOHUGEPAGE", 15 },
	{ "MADV_DONTDUMP", 16 }, { "MADV_DODUMP", 17 },
	{ "MADV_WIPEONFORK", 18 }, { "MADV_KEEPONFORK", 19 },
	{ "MADV_COLD", 20 }, { "MADV_PAGEOUT", 21 },
	{ "MADV_POPULATE_READ", 22 }, { "MADV_POPULATE_WRITE", 23 },
	{ "MADV_DONTNEED_LOCKED", 24 }, { "MADV_COLLAPSE", 25 },
	{ "MADV_GUARD_INSTALL", 102 }, { "MADV_GUARD_REMOVE", 103 });

/* process_madvise accepts only the non-destructive advice. */
SET(mmf_pmadv_set, "process_madvise",
	{ "MADV_COLD", 20 }, { "MADV_PAGEOUT", 21 }, { "MADV_WILLNEED", 3 },
	{ "MADV_COLLAPSE", 25 });

SET(mmf_mlock2_set, "mlock2", { "MLOCK_ONFAULT", 0x1 });

SET(mmf_mlockall_set, "mlockall",
	{ "MCL_CURRENT", 0x1 }, { "MCL_FUTURE", 0x2 }, { "MCL_ONFAULT", 0x4 });

SET(mmf_msync_set, "msync",
	{ "MS_ASYNC", 0x1 }, { "MS_INVALIDATE", 0x2 }, { "MS_SYNC", 0x4 });

SET(mmf_swapon_set, "swapon",
	{ "SWAP_FLAG_DISCARD", 0x10000 }, { "SWAP_FLAG_DISCARD_ONCE", 0x20000 },
	{ "SWAP_FLAG_DISCARD_PAGES", 0x40000 });

/* mbind(2): the policy modes, and what to do with pages already there. */
SET(mmf_mpol_set, "mpol",
	{ "MPOL_DEFAULT", 0 }, { "MPOL_PREFERRED", 1 }, { "MPOL_BIND", 2 },
	{ "MPOL_INTERLEAVE", 3 }, { "MPOL_LOCAL", 4 }, { "MPOL_PREFERRED_MANY", 5 },
	{ "MPOL_WEIGHTED_INTERLEAVE", 6 });

SET(mmf_mbind_set, "mbind",
	{ "MPOL_MF_STRICT", 0x1 }, { "MPOL_MF_MOVE", 0x2 }, { "MPOL_MF_MOVE_ALL", 0x4 });

#define MAP(n)		{ n, MMF_ARG_MAP }
#define PAGE(n)		{ n, MMF_ARG_PAGE }
#define NPAGES(n)	{ n, MMF_ARG_NPAGES }
#define FLAGS(n, s)	{ n, MMF_ARG_FLAGS, &(s) }
#define ENUM(n, s)	{ n, MMF_ARG_ENUM, &(s) }
#define RANGE		MAP("map"), PAGE("page"), NPAGES("npages")

const struct mmf_call_desc mmf_calls[MMF_NR_CALLS] = {
	[MMF_MMAP] = { "mmap", 7, { RANGE, { "backing", MMF_ARG_BACKING },
		FLAGS("prot", mmf_prot_set),
		ENUM("share", mmf_share_set), FLAGS("flags", mmf_mmap_set) },
		MMF_CALL_DEFINES | MMF_CALL_RANGE, .weight = 10 },
	[MMF_MUNMAP] = { "munmap", 3, { RANGE }, MMF_CALL_RANGE, .weight = 3 },
	[MMF_MREMAP] = { "mremap", 7, { RANGE, MAP("new_map"),
		PAGE("new_page"), NPAGES("new_npages"),
		FLAGS("flags", mmf_mremap_set) }, MMF_CALL_RANGE, .weight = 4 },
	[MMF_MPROTECT] = { "mprotect", 4, { RANGE,
		FLAGS("prot", mmf_prot_set) }, MMF_CALL_RANGE, .weight = 4 },
	[MMF_MADVISE] = { "madvise", 4, { RANGE, ENUM("advice", mmf_madv_set) },
		MMF_CALL_RANGE | MMF_CALL_SWAPCHECK, .weight = 24 },
	[MMF_PROCESS_MADVISE] = { "process_madvise", 5, { RANGE,
		{ "target", MMF_ARG_TARGET }, ENUM("advice", mmf_pmadv_set) },
		MMF_CALL_RANGE | MMF_CALL_SWAPCHECK, .weight = 6 },
	[MMF_MLOCK] = { "mlock", 3, { RANGE }, MMF_CALL_RANGE, .weight = 4 },
	[MMF_MLOCK2] = { "mlock2", 4, { RANGE,
		FLAGS("flags", mmf_mlock2_set) }, MMF_CALL_RANGE, .weight = 2 },
	[MMF_MUNLOCK] = { "munlock", 3, { RANGE }, MMF_CALL_RANGE, .weight = 3 },
	[MMF_MLOCKALL] = { "mlockall", 1, { FLAGS("flags", mmf_mlockall_set) },
		MMF_CALL_GLOBAL, .weight = 1 },
	[MMF_MUNLOCKALL] = { "munlockall", 0, { }, MMF_CALL_GLOBAL, .weight = 1 },
	[MMF_WRITE] = { "write", 4, { RANGE, { "tag", MMF_ARG_TAG } },
		MMF_CALL_RANGE, .weight = 16 },
	[MMF_READ] = { "read", 3, { RANGE }, MMF_CALL_RANGE, .weight = 12 },
	[MMF_MINCORE] = { "mincore", 3, { RANGE }, MMF_CALL_RANGE, .weight = 2 },
	[MMF_MSYNC] = { "msync", 4, { RANGE, FLAGS("flags", mmf_msync_set) },
		MMF_CALL_RANGE, .weight = 1 },
	[MMF_MEMFD] = { "memfd", 2, { { "file", MMF_ARG_FILE },
		NPAGES("npages") }, MMF_CALL_DEFINES, .weight = 2 },
	[MMF_TMPFILE] = { "tmpfile", 2, { { "file", MMF_ARG_FILE },
		NPAGES("npages") }, MMF_CALL_DEFINES, .weight = 1 },
	[MMF_SWAPOFF] = { "swapoff", 1, { { "swap", MMF_ARG_SWAP } },
		MMF_CALL_GLOBAL | MMF_CALL_SWAPCHECK, .weight = 1 },
	[MMF_SWAPON] = { "swapon", 3, { { "swap", MMF_ARG_SWAP },
		{ "prio", MMF_ARG_INT, .min = -1, .max = 100 },
		FLAGS("flags", mmf_swapon_set) }, MMF_CALL_GLOBAL, .weight = 1 },
	/* track D: placement. A node is 0 or 1 (-1: an empty node mask); a
	 * machine with one node gives EINVAL or ENODEV for node 1.
	 */
	[MMF_MBIND] = { "mbind", 6, { RANGE, ENUM("mode", mmf_mpol_set),
		{ "node", MMF_ARG_INT, .min = -1, .max = 1 },
		FLAGS("flags", mmf_mbind_set) }, MMF_CALL_RANGE, .weight = 3 },
	[MMF_MOVE_PAGES] = { "move_pages", 5, { RANGE, { "target", MMF_ARG_TARGET },
		{ "node", MMF_ARG_INT, .min = -1, .max = 1 } }, MMF_CALL_RANGE, .weight = 3 },
	[MMF_MIGRATE_PAGES] = { "migrate_pages", 3, { { "target", MMF_ARG_TARGET },
		{ "from", MMF_ARG_INT, .min = 0, .max = 1 },
		{ "to", MMF_ARG_INT, .min = 0, .max = 1 } }, MMF_CALL_GLOBAL, .weight = 1 },
	[MMF_COMPACT] = { "compact_memory", 0, { }, MMF_CALL_GLOBAL, .weight = 1 },
	[MMF_FORK] = { "fork", 1, { { "child", MMF_ARG_CHILD } },
		MMF_CALL_DEFINES, MMF_BLOCK_FORK, .weight = 3 },
	[MMF_THREAD] = { "thread", 0, { }, 0, MMF_BLOCK_THREAD, .weight = 3 },
	[MMF_END] = { "}", 0, { }, 0, MMF_BLOCK_END, .weight = 0 },
	[MMF_JOIN] = { "join", 0, { }, 0, MMF_BLOCK_JOIN, .weight = 1 },
};
