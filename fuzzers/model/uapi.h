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

#endif
