// SPDX-License-Identifier: GPL-2.0
/* The arena page at p when [p, p + bytes) lies in one slot, else -1. */
static int page_index(const char *p, long bytes)
{
	for (int m = 0; m < NR_MAPS; m++)
		if (p >= slot_base[m] && p - slot_base[m] + bytes <= len(SLOT_PAGES))
			return m * SLOT_PAGES + (p - slot_base[m]) / psz;
	return -1;
}

/* mremap of a range to a slot; the result is the arena page it starts at. */
static long remap(int slot, int pg, int n, int to_slot, int to_pg, int n2, long flags)
{
	char *to = at(to_slot, to_pg);
	long r = syscall(SYS_mremap, at(slot, pg), len(n), len(n2), flags, to);
	int idx;

	if (r == -1)
		return -errno;
	idx = page_index((char *)r, len(n2));
	if (idx < 0) {
		/* Moved where the kernel liked: bring it back to the slot. */
		long b = syscall(SYS_mremap, r, len(n2), len(n2),
				 0x3 /* MREMAP_MAYMOVE|MREMAP_FIXED */, to);

		if (b == -1) {
			syscall(SYS_munmap, r, len(n2));
			return -EFAULT;
		}
		idx = to_slot * SLOT_PAGES + to_pg;
	}
	return idx;
}
