// SPDX-License-Identifier: GPL-2.0
/* rt_mremap()'s question: the arena page at p when [p, p + bytes) lies in one slot, else -1. */
static int page_index(const char *p, long bytes, const void *unused)
{
	for (int m = 0; m < NR_MAPS; m++)
		if (p >= slot_base[m] && p - slot_base[m] + bytes <= len(SLOT_PAGES))
			return m * SLOT_PAGES + (p - slot_base[m]) / psz;
	return -1;
}
