// SPDX-License-Identifier: GPL-2.0
/*
 * Rules of the userfaultfd calls.
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
#include "model/uapi.h"
#include "oracle/rules.h"
#include "util/util.h"

static bool usable(const struct mmf_shadow_page *pg)
{
	return pg->mapped && !pg->lost;
}

/* The descriptor is made lazily; it maps nothing. */
MMF_RULE_NEUTRAL(uffd_create)

void mmf_rule_uffd_register(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int idx, n;

	/* Also when it failed: registration may stop half-way through. */
	if (!(s->args[3] & MMF_UFFDIO_REGISTER_MODE_MISSING))
		return;
	mmf_stmt_range(s, &idx, &n);
	for (int i = 0; i < n; i++) {
		struct mmf_shadow_page *pg = &sh->pages[idx + i];

		if (usable(pg) && pg->priv && mmf_page_obj(pg) >= 0)
			pg->uffd_zero = 1;
	}
}

/* Faults resolve as without the uffd again. */
MMF_RULE_NEUTRAL(uffd_unregister)

/* The pages done hold what write(tag) would store: zero for tag 0. */
static void fill(struct mmf_shadow *sh, const struct mmf_stmt *s, uint64_t tag, long res)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	for (int i = 0; i < MIN(res, n); i++) {
		struct mmf_vset w = mmf_vset_one(mmf_shadow_word(sh, tag, idx + i));

		sh->pages[idx + i].poison = 0;
		mmf_shadow_store(sh, idx + i, &w);
	}
}

void mmf_rule_uffd_copy(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	fill(sh, s, s->args[3], res);
}

void mmf_rule_uffd_zeropage(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	fill(sh, s, 0, res);
}

/* Write protection faults are resolved by clearing it: contents stay. */
MMF_RULE_NEUTRAL(uffd_writeprotect)
/* Maps the page cache's page: the content the model has already. */
MMF_RULE_NEUTRAL(uffd_continue)

void mmf_rule_uffd_poison(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	for (int i = 0; i < MIN(res, n); i++)
		sh->pages[idx + i].poison = 1;
}

/* Only private anonymous pages move; anything else means the model erred. */
void mmf_rule_uffd_move(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
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
		sp->own = mmf_vset_zero;
		sp->poison = 0;
	}
	/* The generic rule touches the destination; the source too. */
	mmf_shadow_touch_range(sh, src, n, si);
}
