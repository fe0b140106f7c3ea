/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel UAPI numbers that mmfuzz's layers compare with or pass, defined
 * once: the model's flag sets (calls.c) are made of them, the oracles and
 * the C reproducer test arguments against them, and the executor uses them
 * where the C library's headers lack the name. The same on x86_64 and
 * arm64. Add a number here, under its family, never in a layer's file.
 */
#ifndef MMF_UAPI_H
#define MMF_UAPI_H

/* map */
#define MMF_PROT_WRITE		0x2
#define MMF_MAP_SHARED_VALIDATE	0x03
#define MMF_MAP_FIXED		0x10
#define MMF_MAP_LOCKED		0x2000
#define MMF_MAP_POPULATE	0x8000
#define MMF_MAP_FIXED_NOREPLACE	0x100000
#define MMF_PROT_READ		0x1
#define MMF_MAP_PRIVATE		0x02
#define MMF_MAP_ANONYMOUS	0x20
#define MMF_MREMAP_MAYMOVE	0x1
#define MMF_MREMAP_FIXED	0x2
#define MMF_MREMAP_DONTUNMAP	0x4

/* advise */
#define MMF_MADV_DONTNEED	4
#define MMF_MADV_FREE		8
#define MMF_MADV_MERGEABLE	12
#define MMF_MADV_REMOVE		9
#define MMF_MADV_DONTFORK	10
#define MMF_MADV_DOFORK		11
#define MMF_MADV_WIPEONFORK	18
#define MMF_MADV_KEEPONFORK	19
#define MMF_MADV_POPULATE_WRITE	23
#define MMF_MADV_DONTNEED_LOCKED	24
#define MMF_MADV_GUARD_INSTALL	102
#define MMF_MADV_GUARD_REMOVE	103
#define MMF_MADV_COLD		20
#define MMF_MADV_PAGEOUT	21

/* lock */
#define MMF_MLOCK_ONFAULT	0x1
#define MMF_MCL_CURRENT		0x1
#define MMF_MCL_FUTURE		0x2
#define MMF_MCL_ONFAULT		0x4

/* file */
#define MMF_MFD_HUGETLB		0x4
/* fallocate's mode: FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE */
#define MMF_FALLOC_PUNCH_HOLE	0x3

/* uffd */
#define MMF_UFFDIO_REGISTER_MODE_MISSING	0x1

/* file */
#define MMF_F_ADD_SEALS		1033
#define MMF_HUGETLBFS_MAGIC	0x958458f6
#define MMF_NR_MEMFD_SECRET	447	/* the syscall number */

/* uffd: UFFD_FEATURE_* bits newer than Debian 12's headers (6.1) */
#define MMF_UFFD_FEATURE_MISSING_SHMEM		(1ull << 5)
#define MMF_UFFD_FEATURE_THREAD_ID		(1ull << 8)
#define MMF_UFFD_FEATURE_MINOR_SHMEM		(1ull << 10)
#define MMF_UFFD_FEATURE_WP_SHMEM		(1ull << 12)
#define MMF_UFFD_FEATURE_WP_UNPOPULATED		(1ull << 13)
#define MMF_UFFD_FEATURE_POISON			(1ull << 14)
#define MMF_UFFD_FEATURE_MOVE			(1ull << 16)

/* pin */
#define MMF_SPLICE_F_NONBLOCK	0x02
#define MMF_F_SETPIPE_SZ	1031

/* tune */
#define MMF_PR_SET_MEMORY_MERGE	67

/* swap */
#define MMF_SWAP_FLAG_PREFER	0x8000
#define MMF_SWAP_FLAG_PRIO_MASK	0x7fff

#endif
