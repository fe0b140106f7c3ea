// SPDX-License-Identifier: GPL-2.0
/*
 * Shadow model rules of the userfaultfd calls (issue 7 track B).
 *
 * The executor's handler (exec/uffd.c) resolves a missing fault with a zero
 * page, a write-protect fault by clearing WP and a minor fault with
 * UFFDIO_CONTINUE: the content the kernel would have shown without the uffd.
 * So registering, write-protecting, continuing and the faults themselves
 * leave the model's contents alone, with one exception: a MISSING fault in a
 * private file mapping gets an anonymous zero page of its own, which later
 * writes to the file no longer reach (uffd_zero: "the file's page, or zero").
 *
 * The filling calls report the pages they did before the first failure (a
 * present page is EEXIST): COPY stores what write(tag) would, ZEROPAGE
 * zeros, POISON leaves content but makes access fault, MOVE carries anonymous
 * pages from the source to the destination and leaves the source empty.
 */
#include "oracle/shadow_int.h"
#include "util/util.h"

enum { REG_MISSING = 0x1 };

static const struct mmf_vset zero_set = { 1, { 0 } };

void mmf_uffd_move_range(const struct mmf_stmt *s, int *dst, int *src, int *n)
{
	*dst = s->args[0] * MMF_SLOT_PAGES + s->args[1];
	*src = s->args[3] * MMF_SLOT_PAGES + s->args[4];
	*n = MIN((int)s->args[2], MMF_ARENA_PAGES - MAX(*dst, *src));
}

static bool usable(const struct mmf_shadow_page *pg)
{
	return pg->mapped && !pg->lost;
}

static void do_register(struct mmf_shadow *sh, int idx, int n, uint64_t mode)
{
	/* Also when it failed: registration may stop half-way through. */
	if (!(mode & REG_MISSING))
		return;
	for (int i = 0; i < n; i++) {
		struct mmf_shadow_page *pg = &sh->pages[idx + i];

		if (usable(pg) && pg->priv && mmf_page_obj(pg) >= 0)
			pg->uffd_zero = 1;
	}
}

static void do_fill(struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n, long res)
{
	for (int i = 0; i < MIN(res, n); i++) {
		struct mmf_vset w = zero_set;

		if (s->id == MMF_UFFD_COPY)
			w.v[0] = mmf_shadow_word(sh, s->args[3], idx + i);
		sh->pages[idx + i].poison = 0;
		mmf_shadow_store(sh, idx + i, &w);
	}
}

/* Only private anonymous pages move; anything else means the model erred. */
static void do_move(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int dst, src, n;

	mmf_uffd_move_range(s, &dst, &src, &n);
	for (int i = 0; i < MIN(res, n); i++) {
		struct mmf_shadow_page *d = &sh->pages[dst + i], *sp = &sh->pages[src + i];

		if (!usable(d) || !usable(sp) || mmf_page_obj(d) >= 0 || mmf_page_obj(sp) >= 0) {
			mmf_shadow_lose_page(sh, d);
			mmf_shadow_lose_page(sh, sp);
			continue;
		}
		d->own = sp->own;
		d->poison = 0;
		sp->own = zero_set;
		sp->poison = 0;
	}
	/* The generic rule touches the destination; the source too. */
	for (int i = 0; i < n; i++) {
		mmf_shadow_touch(&sh->pages[src + i], si);
		if (sh->contested_slots & (1u << ((src + i) / MMF_SLOT_PAGES)))
			mmf_shadow_lose_page(sh, &sh->pages[src + i]);
	}
}

void mmf_shadow_apply_uffd(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int idx, n;

	if (!mmf_stmt_range(s, &idx, &n))
		return;
	switch (s->id) {
	case MMF_UFFD_REGISTER:
		do_register(sh, idx, n, s->args[3]);
		break;
	case MMF_UFFD_COPY:
	case MMF_UFFD_ZEROPAGE:
		do_fill(sh, s, idx, n, res);
		break;
	case MMF_UFFD_POISON:
		for (int i = 0; i < MIN(res, n); i++)
			sh->pages[idx + i].poison = 1;
		break;
	case MMF_UFFD_MOVE:
		do_move(sh, s, si, res);
		break;
	default:
		/* unregister, writeprotect, continue: content stays. */
		break;
	}
}
