// SPDX-License-Identifier: GPL-2.0
struct filling {
	int idx, tag;
};

static void fill_page(int i, void *arg)
{
	const struct filling *f = arg;

	rt_fill_page(page(f->idx + i), psz, word(f->tag, f->idx + i));
}

/* write(m, page, n, tag): fill each page with its pattern word. */
static long fill(int slot, int pg, int n, int tag)
{
	struct filling f = { slot * SLOT_PAGES + pg, tag };

	return rt_guarded(&fault_jmp, n, fill_page, &f);
}
