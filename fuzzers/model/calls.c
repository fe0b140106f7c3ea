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
 * userfaultfd. The via argument is not a UAPI value: how
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
/* Cgroups, shmem and files, special mappings, KSM, mTHP. */
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

const char *const mmf_cgknob_files[MMF_NR_CGKNOBS][2] = {
	{ "memory.max", "memory.limit_in_bytes" },
	{ "memory.swap.max", "memory.memsw.limit_in_bytes" },
	{ "memory.high", "memory.soft_limit_in_bytes" },
};
/* mbind(2): the policy modes, and what to do with pages already there. */
SET(mmf_mpol_set, "mpol",
	{ "MPOL_DEFAULT", 0 }, { "MPOL_PREFERRED", 1 }, { "MPOL_BIND", 2 },
	{ "MPOL_INTERLEAVE", 3 }, { "MPOL_LOCAL", 4 }, { "MPOL_PREFERRED_MANY", 5 },
	{ "MPOL_WEIGHTED_INTERLEAVE", 6 });

SET(mmf_mbind_set, "mbind",
	{ "MPOL_MF_STRICT", 0x1 }, { "MPOL_MF_MOVE", 0x2 }, { "MPOL_MF_MOVE_ALL", 0x4 });

/* The argument descriptors of calls.def. */
#define ARG(n, t)	{ .name = n, .type = MMF_ARG_##t }
#define MAP(n)		ARG(n, MAP)
#define PAGE(n)		ARG(n, PAGE)
#define NPAGES(n)	ARG(n, NPAGES)
#define FILESLOT(n)	ARG(n, FILE)
#define TARGET(n)	ARG(n, TARGET)
#define TAG(n)		ARG(n, TAG)
#define SWAP(n)		ARG(n, SWAP)
#define CHILD(n)	ARG(n, CHILD)
#define BACKING(n)	ARG(n, BACKING)
#define INT(n, lo, hi)	{ .name = n, .type = MMF_ARG_INT, .min = lo, .max = hi }
#define FLAGS(n, s)	{ .name = n, .type = MMF_ARG_FLAGS, .set = &(s) }
#define ENUM(n, s)	{ .name = n, .type = MMF_ARG_ENUM, .set = &(s) }
#define RANGE		MAP("map"), PAGE("page"), NPAGES("npages")

/* The number of argument descriptors in a list of them. */
#define NARGS(...)	((int)(sizeof((struct mmf_arg_desc[]){ __VA_ARGS__ }) /	\
			       sizeof(struct mmf_arg_desc)))

const struct mmf_call_desc mmf_calls[MMF_NR_CALLS] = {
#define MMF_CALL(id, fn, family, name, flags, weight, ...)			\
	[MMF_##id] = { name, NARGS(__VA_ARGS__), { __VA_ARGS__ }, flags,		\
		       MMF_BLOCK_NONE, weight },
#define MMF_BLOCK(id, fn, name, kind, flags, weight, ...)			\
	[MMF_##id] = { name, NARGS(__VA_ARGS__), { __VA_ARGS__ }, flags, kind, weight },
#include "model/calls.def"
#undef MMF_CALL
#undef MMF_BLOCK
};
