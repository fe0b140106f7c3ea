// SPDX-License-Identifier: GPL-2.0
static void fill_page(int idx, void *arg)
{
	uint64_t *pg = (uint64_t *)page(idx), w = word(*(int *)arg, idx);
	long words = psz / 8;

	for (long i = 0; i < words; i++)
		pg[i] = w;
}

/* write(m, page, n, tag): fill each page with its pattern word. */
static long fill(int slot, int pg, int n, int tag)
{
	return guarded(slot * SLOT_PAGES + pg, n, fill_page, &tag);
}
