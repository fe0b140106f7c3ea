// SPDX-License-Identifier: GPL-2.0
/* mremap of a range to a slot; the result is the arena page it starts at. */
static long remap(int slot, int pg, int n, int to_slot, int to_pg, int n2, long flags)
{
	char *to = at(to_slot, to_pg);
	long r = syscall(SYS_mremap, at(slot, pg), len(n), len(n2), flags, to);

	if (r == -1)
		return -errno;
	if ((char *)r < arena || (char *)r + len(n2) > page(ARENA_PAGES)) {
		/* Moved where the kernel liked: bring it back to the slot. */
		long b = syscall(SYS_mremap, r, len(n2), len(n2),
				 0x3 /* MREMAP_MAYMOVE|MREMAP_FIXED */, to);

		if (b == -1) {
			syscall(SYS_munmap, r, len(n2));
			return -EFAULT;
		}
		r = b;
	}
	return ((char *)r - arena) / psz;
}
