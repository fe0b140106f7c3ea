/* SPDX-License-Identifier: GPL-2.0 */
/* The map family: mappings placed exactly in the arena's slots. */
#ifndef MMF_RUNTIME_MAP_H
#define MMF_RUNTIME_MAP_H

#include "runtime/base.h"

#ifndef SYS_mseal
#define SYS_mseal		462	/* the same on every arch */
#endif

/*
 * A program's mmap at addr: anonymous (flags have MAP_ANONYMOUS) or of
 * file fd from byte off, where a file slot without a file is -EBADF.
 */
static inline long rt_mmap(void *addr, long len, int prot, int flags, int fd, off_t off)
{
	if (!(flags & MAP_ANONYMOUS) && fd < 0)
		return -EBADF;
	return rt_mmap_at(addr, len, prot, flags, (flags & MAP_ANONYMOUS) ? -1 : fd, off);
}

/*
 * mremap of [addr, addr + len) to len2 bytes, to `to` when the flags say
 * MREMAP_FIXED. The result is the arena page where the range starts,
 * index(where, len2, arg), which is < 0 off the arena: a range the kernel
 * moved where it liked is moved back to `to` (arena page to_idx).
 */
static inline long rt_mremap(char *addr, long len, long len2, int flags, char *to, int to_idx,
			     int (*index)(const char *p, long bytes, const void *arg),
			     const void *arg)
{
	char *r = mremap(addr, len, len2, flags, to);
	int idx;

	if (r == MAP_FAILED)
		return -errno;
	idx = index(r, len2, arg);
	if (idx >= 0)
		return idx;
	if (mremap(r, len2, len2, MREMAP_MAYMOVE | MREMAP_FIXED, to) == MAP_FAILED) {
		munmap(r, len2);
		return -EFAULT;
	}
	return to_idx;
}

#endif
