// SPDX-License-Identifier: GPL-2.0
/*
 * Rules of the file family: what a file slot holds, and file content
 * changed through the descriptor. A failed call with possible partial
 * effects gives the union of before and after, and what the model cannot
 * know it stops predicting.
 */
#include "model/uapi.h"
#include "oracle/rules.h"
#include "util/util.h"

static void new_file(struct mmf_shadow *sh, int f, int npages, int kind, bool obj, long res)
{
	sh->file_kind[f] = res < 0 ? MMF_FILE_PLAIN : kind;
	sh->file_obj[f] = res < 0 || !obj ? -1 :
		mmf_shadow_obj_new(sh, npages, sh->contested_files & (1u << f));
}

void mmf_rule_memfd(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	new_file(sh, s->args[0], s->args[1], MMF_FILE_PLAIN, true, res);
}

void mmf_rule_tmpfile(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	new_file(sh, s->args[0], s->args[1], MMF_FILE_PLAIN, true, res);
}

void mmf_rule_memfd_create(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	/* hugetlb pages are not modelled: its mappings are lost. */
	if (s->args[2] & MMF_MFD_HUGETLB)
		new_file(sh, s->args[0], 0, MMF_FILE_HUGETLB, false, res);
	else
		new_file(sh, s->args[0], s->args[1], MMF_FILE_PLAIN, true, res);
}

void mmf_rule_memfd_secret(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	new_file(sh, s->args[0], s->args[1], MMF_FILE_SECRET, true, res);
}

void mmf_rule_devzero(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	new_file(sh, s->args[0], 0, MMF_FILE_DEVZERO, false, res);
}

/* Seals refuse later changes; they change nothing themselves. */
MMF_RULE_NEUTRAL(memfd_seal)

/* Object page pg becomes zero: unknown if raced, "old or zero" if failed. */
static void zero_obj_page(struct mmf_shadow *sh, int f, int o, int pg, bool fail)
{
	struct mmf_vset *ov = mmf_shadow_obj_page(sh, o, pg);

	if (!ov)
		return;
	if (mmf_shadow_file_contested(sh, f, o))
		ov->n = 0;
	else if (fail)
		mmf_vset_union(ov, &mmf_vset_zero);
	else
		*ov = mmf_vset_zero;
}

/* Only a punched hole changes contents: allocation keeps them. */
void mmf_rule_fallocate(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int f = s->args[0];

	if (s->args[3] != MMF_FALLOC_PUNCH_HOLE || sh->file_obj[f] < 0)
		return;
	for (int i = 0; i < (int)s->args[2]; i++)
		zero_obj_page(sh, f, sh->file_obj[f], s->args[1] + i, res < 0);
}

/*
 * ftruncate: pages past the new end are gone, zero if it grows again, and
 * truncation also drops the COWed copies of private mappings (even_cows).
 */
void mmf_rule_ftruncate(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int f = s->args[0], npages = s->args[1], o = sh->file_obj[f];

	if (o < 0)
		return;
	for (int pg = npages; pg < sh->objs[o].npages; pg++)
		zero_obj_page(sh, f, o, pg, res < 0);
	for (int i = 0; i < MMF_ARENA_PAGES; i++) {
		struct mmf_shadow_page *p = &sh->pages[i];

		if (p->mapped && !p->lost && mmf_page_obj(p) == o && p->priv &&
		    p->objpage >= npages)
			mmf_shadow_zap(p, res < 0);
	}
}

/* res: the pages written. */
void mmf_rule_pwrite(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int f = s->args[0], o = sh->file_obj[f], from = s->args[1], n = s->args[2];

	if (o < 0)
		return;
	for (int i = 0; i < MAX(res, 0); i++) {
		struct mmf_vset *ov = mmf_shadow_obj_page(sh, o, from + i);

		if (!ov)
			continue;
		if (mmf_shadow_file_contested(sh, f, o)) {
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

/* The executor checks what it reads against the model. */
MMF_RULE_NEUTRAL(pread)
