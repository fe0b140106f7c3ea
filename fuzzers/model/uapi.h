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
#define MMF_MAP_ANONYMOUS	0x20
#define MMF_MREMAP_MAYMOVE	0x1
#define MMF_MREMAP_FIXED	0x2
#define MMF_MREMAP_DONTUNMAP	0x4

/* advise */
#define MMF_MADV_DONTNEED	4
#define MMF_MADV_FREE		8
#define MMF_MADV_MERGEABLE	12
#define MMF_MADV_REMOVE		9
#define MMF_MADV_WIPEONFORK	18
#define MMF_MADV_COLD		20
#define MMF_MADV_PAGEOUT	21
#define MMF_MADV_GUARD_INSTALL	102

/* lock */
#define MMF_MLOCK_ONFAULT	0x1

/* swap */
#define MMF_SWAP_FLAG_PREFER	0x8000
#define MMF_SWAP_FLAG_PRIO_MASK	0x7fff

#endif
