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

/*
 * issue 7 track B: userfaultfd. The via argument is not a UAPI value: how
 * the executor gets its descriptor (userfaultfd(2) or /dev/userfaultfd).
 * Features are UFFDIO_API's; the event features make the handler thread
 * (exec/uffd.c) drain fork, remap, remove and unmap events.
 */
SET(mmf_uffd_via_set, "uffd_via", { "UFFD_SYSCALL", 0 }, { "UFFD_DEV", 1 });

SET(mmf_uffd_features_set, "uffd_features",
	{ "UFFD_FEATURE_EVENT_FORK", 1 << 1 }, { "UFFD_FEATURE_EVENT_REMAP", 1 << 2 },
	{ "UFFD_FEATURE_EVENT_REMOVE", 1 << 3 }, { "UFFD_FEATURE_MISSING_SHMEM", 1 << 5 },
	{ "UFFD_FEATURE_EVENT_UNMAP", 1 << 6 }, { "UFFD_FEATURE_THREAD_ID", 1 << 8 },
	{ "UFFD_FEATURE_MINOR_SHMEM", 1 << 10 }, { "UFFD_FEATURE_WP_HUGETLBFS_SHMEM", 1 << 12 },
	{ "UFFD_FEATURE_WP_UNPOPULATED", 1 << 13 }, { "UFFD_FEATURE_POISON", 1 << 14 },
	{ "UFFD_FEATURE_WP_ASYNC", 1 << 15 }, { "UFFD_FEATURE_MOVE", 1 << 16 });

SET(mmf_uffd_register_set, "uffd_register",
	{ "UFFDIO_REGISTER_MODE_MISSING", 0x1 }, { "UFFDIO_REGISTER_MODE_WP", 0x2 },
	{ "UFFDIO_REGISTER_MODE_MINOR", 0x4 });

SET(mmf_uffd_copy_set, "uffd_copy",
	{ "UFFDIO_COPY_MODE_DONTWAKE", 0x1 }, { "UFFDIO_COPY_MODE_WP", 0x2 });

SET(mmf_uffd_wp_set, "uffd_writeprotect",
	{ "UFFDIO_WRITEPROTECT_MODE_WP", 0x1 }, { "UFFDIO_WRITEPROTECT_MODE_DONTWAKE", 0x2 });

SET(mmf_uffd_continue_set, "uffd_continue",
	{ "UFFDIO_CONTINUE_MODE_DONTWAKE", 0x1 }, { "UFFDIO_CONTINUE_MODE_WP", 0x2 });

/* ZEROPAGE and POISON have only DONTWAKE (bit 0). */
SET(mmf_uffd_dontwake_set, "uffd_dontwake", { "UFFDIO_MODE_DONTWAKE", 0x1 });

SET(mmf_uffd_move_set, "uffd_move",
	{ "UFFDIO_MOVE_MODE_DONTWAKE", 0x1 }, { "UFFDIO_MOVE_MODE_ALLOW_SRC_HOLES", 0x2 });
/* Track C: cgroups, shmem and files, special mappings, KSM, mTHP. */
SET(mmf_cgknob_set, "cgroup knob",
	{ "MEMORY_MAX", 0 }, { "MEMORY_SWAP_MAX", 1 }, { "MEMORY_HIGH", 2 });

SET(mmf_memfd_set, "memfd_create",
	{ "MFD_ALLOW_SEALING", 0x2 }, { "MFD_HUGETLB", 0x4 },
	{ "MFD_NOEXEC_SEAL", 0x8 }, { "MFD_EXEC", 0x10 });

SET(mmf_seal_set, "seals",
	{ "F_SEAL_SEAL", 0x1 }, { "F_SEAL_SHRINK", 0x2 }, { "F_SEAL_GROW", 0x4 },
	{ "F_SEAL_WRITE", 0x8 }, { "F_SEAL_FUTURE_WRITE", 0x10 });

/*
 * FALLOC_FL_* modes: PUNCH_HOLE is PUNCH_HOLE|KEEP_SIZE (the kernel takes no
 * hole without it); shmem allocates and punches, ZERO_RANGE is EOPNOTSUPP.
 */
SET(mmf_falloc_set, "fallocate",
	{ "PUNCH_HOLE", 0x3 }, { "KEEP_SIZE", 0x1 }, { "ALLOCATE", 0x0 },
	{ "ZERO_RANGE", 0x10 });

/*
 * Mappings the kernel backs with its own pages that can sit in a slot. Not
 * io_uring's rings: io_uring_get_unmapped_area() refuses any address we
 * choose, and mremap() of the ring VMA fails (EINVAL, 6.18).
 */
SET(mmf_special_set, "special", { "PERF_RING", 0 });

/* Indexes into mmf_knob_paths[]. */
SET(mmf_thpknob_set, "knob",
	{ "THP_16K", 0 }, { "THP_32K", 1 }, { "THP_64K", 2 }, { "THP_128K", 3 },
	{ "THP_256K", 4 }, { "THP_512K", 5 }, { "THP_1M", 6 }, { "THP_2M", 7 },
	{ "SHMEM", 8 });

/* Knob values; within_size and advise only for shmem, inherit only per size. */
SET(mmf_thpval_set, "knob value",
	{ "never", 0 }, { "always", 1 }, { "madvise", 2 }, { "inherit", 3 },
	{ "within_size", 4 }, { "advise", 5 });

const char *const mmf_knob_paths[MMF_NR_KNOBS] = {
	"hugepages-16kB/enabled", "hugepages-32kB/enabled", "hugepages-64kB/enabled",
	"hugepages-128kB/enabled", "hugepages-256kB/enabled", "hugepages-512kB/enabled",
	"hugepages-1024kB/enabled", "hugepages-2048kB/enabled", "shmem_enabled",
};
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
	/* issue 7 track B: userfaultfd; one uffd per process, made lazily. */
	[MMF_UFFD_CREATE] = { "uffd_create", 2, { ENUM("via", mmf_uffd_via_set),
		FLAGS("features", mmf_uffd_features_set) }, MMF_CALL_GLOBAL, .weight = 1 },
	[MMF_UFFD_REGISTER] = { "uffd_register", 4, { RANGE,
		FLAGS("mode", mmf_uffd_register_set) }, MMF_CALL_RANGE, .weight = 3 },
	[MMF_UFFD_UNREGISTER] = { "uffd_unregister", 3, { RANGE }, MMF_CALL_RANGE, .weight = 1 },
	[MMF_UFFD_COPY] = { "uffd_copy", 5, { RANGE, { "tag", MMF_ARG_TAG },
		FLAGS("mode", mmf_uffd_copy_set) }, MMF_CALL_RANGE, .weight = 2 },
	[MMF_UFFD_ZEROPAGE] = { "uffd_zeropage", 4, { RANGE,
		FLAGS("mode", mmf_uffd_dontwake_set) }, MMF_CALL_RANGE, .weight = 1 },
	[MMF_UFFD_WRITEPROTECT] = { "uffd_writeprotect", 4, { RANGE,
		FLAGS("mode", mmf_uffd_wp_set) }, MMF_CALL_RANGE | MMF_CALL_SWAPCHECK,
		.weight = 2 },
	[MMF_UFFD_CONTINUE] = { "uffd_continue", 4, { RANGE,
		FLAGS("mode", mmf_uffd_continue_set) }, MMF_CALL_RANGE, .weight = 1 },
	[MMF_UFFD_POISON] = { "uffd_poison", 4, { RANGE,
		FLAGS("mode", mmf_uffd_dontwake_set) }, MMF_CALL_RANGE, .weight = 1 },
	[MMF_UFFD_MOVE] = { "uffd_move", 6, { RANGE, MAP("src_map"), PAGE("src_page"),
		FLAGS("mode", mmf_uffd_move_set) }, MMF_CALL_RANGE | MMF_CALL_SWAPCHECK,
		.weight = 1 },
	/* track A: pins. The pipe is the process's own, made on first use. */
	[MMF_VMSPLICE] = { "vmsplice", 4, { RANGE,
		{ "pipe", MMF_ARG_INT, .min = 0, .max = MMF_NR_PIPES - 1 } },
		MMF_CALL_RANGE, .weight = 3 },
	[MMF_PIPE_READ] = { "pipe_read", 2, {
		{ "pipe", MMF_ARG_INT, .min = 0, .max = MMF_NR_PIPES - 1 },
		NPAGES("npages") }, 0, .weight = 2 },
	[MMF_URING_REGISTER] = { "uring_register", 3, { RANGE }, MMF_CALL_RANGE, .weight = 2 },
	[MMF_URING_READ_FIXED] = { "uring_read_fixed", 5, { RANGE,
		{ "file", MMF_ARG_FILE }, PAGE("file_page") }, MMF_CALL_RANGE, .weight = 3 },
	[MMF_URING_WRITE_FIXED] = { "uring_write_fixed", 5, { RANGE,
		{ "file", MMF_ARG_FILE }, PAGE("file_page") }, MMF_CALL_RANGE, .weight = 2 },
	[MMF_DIO_FILE] = { "dio_file", 2, { { "file", MMF_ARG_FILE },
		NPAGES("npages") }, MMF_CALL_DEFINES, .weight = 1 },
	[MMF_DIO_READ] = { "dio_read", 5, { RANGE, { "file", MMF_ARG_FILE },
		PAGE("file_page") }, MMF_CALL_RANGE, .weight = 2 },
	[MMF_DIO_WRITE] = { "dio_write", 5, { RANGE, { "file", MMF_ARG_FILE },
		PAGE("file_page") }, MMF_CALL_RANGE, .weight = 2 },
	[MMF_PROCESS_VM_READV] = { "process_vm_readv", 6, { RANGE,
		{ "target", MMF_ARG_TARGET }, MAP("remote_map"), PAGE("remote_page") },
		MMF_CALL_RANGE, .weight = 2 },
	[MMF_PROCESS_VM_WRITEV] = { "process_vm_writev", 6, { RANGE,
		{ "target", MMF_ARG_TARGET }, MAP("remote_map"), PAGE("remote_page") },
		MMF_CALL_RANGE, .weight = 2 },
	/* Track C: cgroups, shmem and files, special mappings, KSM, mTHP. */
	[MMF_CG_MOVE] = { "cg_move", 2, { { "target", MMF_ARG_TARGET },
		{ "cgroup", MMF_ARG_INT, .min = 0, .max = MMF_NR_CGROUPS - 1 } },
		MMF_CALL_GLOBAL, .weight = 2 },
	[MMF_CG_LIMIT] = { "cg_limit", 3, {
		{ "cgroup", MMF_ARG_INT, .min = 0, .max = MMF_NR_CGROUPS - 1 },
		ENUM("knob", mmf_cgknob_set),
		{ "mib", MMF_ARG_INT, .min = 0, .max = 64 } },
		MMF_CALL_GLOBAL, .weight = 1 },
	[MMF_CG_RECLAIM] = { "cg_reclaim", 2, {
		{ "cgroup", MMF_ARG_INT, .min = 0, .max = MMF_NR_CGROUPS - 1 },
		NPAGES("npages") }, MMF_CALL_GLOBAL, .weight = 2 },
	[MMF_MEMFD_CREATE] = { "memfd_create", 3, { { "file", MMF_ARG_FILE },
		NPAGES("npages"), FLAGS("flags", mmf_memfd_set) },
		MMF_CALL_DEFINES, .weight = 2 },
	[MMF_MEMFD_SECRET] = { "memfd_secret", 2, { { "file", MMF_ARG_FILE },
		NPAGES("npages") }, MMF_CALL_DEFINES, .weight = 1 },
	[MMF_DEVZERO] = { "devzero", 1, { { "file", MMF_ARG_FILE } },
		MMF_CALL_DEFINES, .weight = 1 },
	[MMF_MEMFD_SEAL] = { "memfd_seal", 2, { { "file", MMF_ARG_FILE },
		FLAGS("seals", mmf_seal_set) }, 0, .weight = 1 },
	[MMF_FALLOCATE] = { "fallocate", 4, { { "file", MMF_ARG_FILE },
		PAGE("page"), NPAGES("npages"), ENUM("mode", mmf_falloc_set) },
		0, .weight = 3 },
	[MMF_FTRUNCATE] = { "ftruncate", 2, { { "file", MMF_ARG_FILE },
		NPAGES("npages") }, 0, .weight = 2 },
	[MMF_PWRITE] = { "pwrite", 4, { { "file", MMF_ARG_FILE }, PAGE("page"),
		NPAGES("npages"), { "tag", MMF_ARG_TAG } }, 0, .weight = 3 },
	[MMF_PREAD] = { "pread", 3, { { "file", MMF_ARG_FILE }, PAGE("page"),
		NPAGES("npages") }, 0, .weight = 3 },
	[MMF_SPECIAL_MAP] = { "special_map", 4, { RANGE,
		ENUM("kind", mmf_special_set) }, MMF_CALL_RANGE, .weight = 1 },
	[MMF_PRCTL_MERGE] = { "prctl_merge", 1, {
		{ "on", MMF_ARG_INT, .min = 0, .max = 1 } }, MMF_CALL_GLOBAL, .weight = 1 },
	[MMF_KSM_WAIT] = { "ksm_wait", 1, {
		{ "scans", MMF_ARG_INT, .min = 1, .max = 2 } }, MMF_CALL_GLOBAL, .weight = 1 },
	[MMF_THP_KNOB] = { "thp_knob", 2, { ENUM("knob", mmf_thpknob_set),
		ENUM("value", mmf_thpval_set) }, MMF_CALL_GLOBAL, .weight = 1 },
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
