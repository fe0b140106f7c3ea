// SPDX-License-Identifier: GPL-2.0
/*
 * Rules of the advise family. madvise walks the VMAs of its range in order
 * and stops at the first error: a failed call predicts the union of before
 * and after.
 */
#include <errno.h>

#include "model/uapi.h"
#include "oracle/rules.h"

/* The advices that zap: the next fault maps another page. */
static bool zaps(uint64_t advice)
{
	return advice == MMF_MADV_DONTNEED || advice == MMF_MADV_DONTNEED_LOCKED ||
	       advice == MMF_MADV_GUARD_INSTALL || advice == MMF_MADV_REMOVE;
}

static void do_madvise(struct mmf_shadow *sh, uint64_t advice, int idx, int n, bool fail)
{
	for (int i = 0; i < n; i++) {
		struct mmf_shadow_page *pg = &sh->pages[idx + i];
		struct mmf_vset *ov;

		if (pg->lost && advice == MMF_MADV_REMOVE)
			mmf_shadow_lose_objs(sh);
		if (!pg->mapped || pg->lost)
			continue;
		switch (advice) {
		case MMF_MADV_DONTNEED:
		case MMF_MADV_DONTNEED_LOCKED:
			mmf_shadow_zap(pg, fail);
			break;
		case MMF_MADV_GUARD_INSTALL:
			mmf_shadow_zap(pg, fail);
			pg->guard = 1;
			break;
		case MMF_MADV_GUARD_REMOVE:
			pg->guard = fail && pg->guard;
			break;
		case MMF_MADV_FREE:
			/* Lazily freed: old content until reclaim, then zero. */
			if (mmf_page_obj(pg) < 0)
				mmf_vset_union(&pg->own, &mmf_vset_zero);
			break;
		case MMF_MADV_REMOVE:
			ov = pg->view && !pg->priv ?
				mmf_shadow_obj_page(sh, mmf_page_obj(pg), pg->objpage) : NULL;
			/* A racing write may land after the hole, as in a write's rule. */
			if (ov && (sh->contested_objs & (1ull << mmf_page_obj(pg))))
				*ov = mmf_vset_unknown;
			else if (ov && fail)
				mmf_vset_union(ov, &mmf_vset_zero);
			else if (ov)
				*ov = mmf_vset_zero;
			break;
		case MMF_MADV_WIPEONFORK:
		case MMF_MADV_KEEPONFORK:
			if (fail)
				pg->wipe_maybe = 1;
			else
				pg->wipe = advice == MMF_MADV_WIPEONFORK;
			break;
		case MMF_MADV_DONTFORK:
			pg->dontfork = !fail;
			break;
		case MMF_MADV_DOFORK:
			pg->dontfork = 0;
			break;
		case MMF_MADV_POPULATE_WRITE:
			mmf_shadow_maybe_cow(sh, pg);
			break;
		default:
			/* Hints, reclaim and population: content stays. */
			break;
		}
	}
}

/* Advice on pages [idx, idx + n) that may have been done only in part (fail). */
static void advise(struct mmf_shadow *sh, uint64_t advice, int idx, int n, bool fail)
{
	do_madvise(sh, advice, idx, n, fail);
	if (!zaps(advice))
		return;
	for (int i = 0; i < n; i++) {
		const struct mmf_shadow_page *pg = &sh->pages[idx + i];

		/*
		 * A zapped page is not the one pinned or spliced any more, but
		 * in a shared mapping of an object, which faults the same page
		 * back in, unless MADV_REMOVE took it out of the object.
		 */
		if (advice != MMF_MADV_REMOVE && pg->view && !pg->priv && mmf_page_obj(pg) >= 0)
			continue;
		if (!fail)
			mmf_pins_move(sh, idx + i, 1, 0, 0);
		mmf_pins_unpin(sh, idx + i, 1, fail);
	}
}

void mmf_rule_madvise(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	advise(sh, s->args[3], idx, n, res < 0);
}

/* Its advices (cold, pageout, willneed, collapse) keep contents. */
MMF_RULE_NEUTRAL(process_madvise)

/*
 * process_madvise() advises its iovecs in order and stops at the first that
 * fails, which may be done in part; it returns the bytes of the ranges done
 * (the executor gives pages), or the error when the first failed. Before
 * 6.13 any advice but cold, pageout, willneed and collapse is EINVAL with
 * nothing done; from 6.13 ("mm/madvise: unrestrict process_madvise() for
 * current process") the caller's own process takes any advice. The first
 * range's union of before and after on an error holds for both.
 */
void mmf_rule_process_madvise_vec(struct mmf_shadow *sh, const struct mmf_stmt *s, int si,
				  long res)
{
	uint64_t advice = s->args[6];
	int idx, n, idx2, n2;

	mmf_stmt_range(s, &idx, &n);
	mmf_stmt_second_range(s, &idx2, &n2);
	advise(sh, advice, idx, n, res < n);
	if (res < n)
		return;
	advise(sh, advice, idx2, n2, res != n + n2);
	mmf_shadow_touch_range(sh, idx2, n2, si);
}

static bool refuses_locked(const struct mmf_shadow_page *pg)
{
	return pg->locked;
}

static bool refuses_file(const struct mmf_shadow_page *pg)
{
	return mmf_page_obj(pg) >= 0;
}

static bool refuses_remove(const struct mmf_shadow_page *pg)
{
	return pg->locked || mmf_page_obj(pg) < 0 || pg->priv;
}

/* madvise(2): "EINVAL ... MADV_DONTNEED ... range includes locked pages" */
const struct mmf_advice_refusal mmf_advice_refusals[] = {
	{ MMF_MADV_DONTNEED, refuses_locked, "MADV_DONTNEED on an mlocked range" },
	{ MMF_MADV_COLD, refuses_locked, NULL },	/* can_madv_lru_vma() */
	{ MMF_MADV_PAGEOUT, refuses_locked, NULL },
	{ MMF_MADV_FREE, refuses_locked, "MADV_FREE on an mlocked range" },
	{ MMF_MADV_FREE, refuses_file, NULL },		/* anonymous private only */
	{ MMF_MADV_REMOVE, refuses_remove, NULL },	/* shared file-backed, unlocked */
	{ MMF_MADV_WIPEONFORK, refuses_file, NULL },	/* anonymous private only */
	{ MMF_MADV_GUARD_INSTALL, refuses_locked, NULL },
	{ 0 },
};

const char *mmf_advise_refusal(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx,
			       int n)
{
	if (s->id != MMF_MADVISE)
		return NULL;
	/*
	 * madvise() checks a seal before the VMAs: a discarding advice on a
	 * sealed read-only anonymous range is EPERM, whatever else refuses it.
	 */
	for (int i = 0; i < n; i++)
		if (sh->pages[idx + i].sealed)
			return NULL;
	for (const struct mmf_advice_refusal *r = mmf_advice_refusals; r->refuses; r++) {
		if (!r->why || r->advice != s->args[3])
			continue;
		for (int i = 0; i < n; i++)
			if (r->refuses(&sh->pages[idx + i]))
				return r->why;
	}
	return NULL;
}
