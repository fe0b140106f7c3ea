// SPDX-License-Identifier: GPL-2.0
/*
 * Shadow model rules of track C: file slots of other kinds, file content
 * changed through the descriptor, and special mappings. As in shadow.c, a
 * failed call with possible partial effects gives the union of before and
 * after, and what the model cannot know it stops predicting.
 */
#include "oracle/shadow_c.h"
#include "oracle/shadow_int.h"
#include "util/util.h"

enum { MFD_HUGE = 0x4, FALLOC_PUNCH = 0x3 };

static const struct mmf_vset zero_set = { 1, { 0 } };

uint64_t mmf_shadow_file_word(const struct mmf_shadow *sh, uint64_t tag, int pg)
{
	/* Past the arena's pages: told apart from any page written through a mapping. */
	return mmf_shadow_word(sh, tag, MMF_ARENA_PAGES + pg);
}

static bool contested(const struct mmf_shadow *sh, int f, int o)
{
	return (sh->contested_files & (1u << f)) || (sh->contested_objs & (1ull << o));
}

bool mmf_shadow_expect_file(const struct mmf_shadow *sh, int f, int pg, struct mmf_vset *out)
{
	int o = sh->file_obj[f];
	struct mmf_vset *ov;

	if (o < 0 || contested(sh, f, o))
		return false;
	ov = mmf_shadow_obj_page((struct mmf_shadow *)sh, o, pg);
	if (!ov)
		return false;
	*out = *ov;
	return out->n;
}

static void new_file(struct mmf_shadow *sh, int f, int npages, int kind, bool obj, long res)
{
	sh->file_kind[f] = res < 0 ? MMF_FILE_PLAIN : kind;
	sh->file_obj[f] = res < 0 || !obj ? -1 :
		mmf_shadow_obj_new(sh, npages, sh->contested_files & (1u << f));
}

/* Object page pg becomes zero: unknown if raced, "old or zero" if failed. */
static void zero_obj_page(struct mmf_shadow *sh, int f, int o, int pg, bool fail)
{
	struct mmf_vset *ov = mmf_shadow_obj_page(sh, o, pg);

	if (!ov)
		return;
	if (contested(sh, f, o))
		ov->n = 0;
	else if (fail)
		mmf_vset_union_zero(ov);
	else
		*ov = zero_set;
}

/*
 * ftruncate: pages past the new end are gone, zero if it grows again, and
 * truncation also drops the COWed copies of private mappings (even_cows).
 */
static void truncate_obj(struct mmf_shadow *sh, int f, int npages, long res)
{
	int o = sh->file_obj[f];

	if (o < 0)
		return;
	for (int pg = npages; pg < sh->objs[o].npages; pg++)
		zero_obj_page(sh, f, o, pg, res < 0);
	for (int i = 0; i < MMF_ARENA_PAGES; i++) {
		struct mmf_shadow_page *p = &sh->pages[i];

		if (p->mapped && !p->lost && mmf_page_obj(p) == o && p->priv &&
		    p->objpage >= npages)
			mmf_shadow_zap_page(sh, i, res < 0);
	}
}

static void pwrite_obj(struct mmf_shadow *sh, const struct mmf_stmt *s, long res)
{
	int f = s->args[0], o = sh->file_obj[f], from = s->args[1], n = s->args[2];

	if (o < 0)
		return;
	for (int i = 0; i < MAX(res, 0); i++) {
		struct mmf_vset *ov = mmf_shadow_obj_page(sh, o, from + i);

		if (!ov)
			continue;
		if (contested(sh, f, o)) {
			ov->n = 0;
		} else {
			ov->n = 1;
			ov->v[0] = mmf_shadow_file_word(sh, s->args[3], from + i);
		}
	}
	/* The page it stopped at may hold a part of the write. */
	if (MAX(res, 0) < n) {
		struct mmf_vset *ov = mmf_shadow_obj_page(sh, o, from + MAX(res, 0));

		if (ov)
			ov->n = 0;
	}
}

void mmf_shadow_apply_c(struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n,
			long res)
{
	int f = s->args[0];

	switch (s->id) {
	case MMF_MEMFD_CREATE:
		/* hugetlb pages are not modelled: its mappings are lost. */
		if (s->args[2] & MFD_HUGE)
			new_file(sh, f, 0, MMF_FILE_HUGETLB, false, res);
		else
			new_file(sh, f, s->args[1], MMF_FILE_PLAIN, true, res);
		break;
	case MMF_MEMFD_SECRET:
		new_file(sh, f, s->args[1], MMF_FILE_SECRET, true, res);
		break;
	case MMF_DEVZERO:
		new_file(sh, f, 0, MMF_FILE_DEVZERO, false, res);
		break;
	case MMF_FALLOCATE:
		if (s->args[3] != FALLOC_PUNCH || sh->file_obj[f] < 0)
			break;
		for (int i = 0; i < (int)s->args[2]; i++)
			zero_obj_page(sh, f, sh->file_obj[f], s->args[1] + i, res < 0);
		break;
	case MMF_FTRUNCATE:
		truncate_obj(sh, f, s->args[1], res);
		break;
	case MMF_PWRITE:
		pwrite_obj(sh, s, res);
		break;
	case MMF_SPECIAL_MAP:
		/* Pages of the kernel's: not predicted. */
		for (int i = 0; i < MIN(res, (long)n); i++)
			mmf_shadow_lose_page(sh, &sh->pages[idx + i]);
		break;
	default:
		/* cgroups, seals, pread, KSM, knobs: content stays. */
		break;
	}
}
