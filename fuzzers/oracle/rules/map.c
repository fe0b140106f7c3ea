// SPDX-License-Identifier: GPL-2.0
/*
 * Rules of the map family: mappings made, removed, moved and protected,
 * and the special mappings the kernel fills with its own pages.
 */
#include <stdlib.h>
#include <string.h>

#include "model/arena.h"
#include "model/uapi.h"
#include "oracle/rules.h"
#include "util/util.h"

static void map_page(struct mmf_shadow *sh, struct mmf_shadow_page *pg, int obj,
		     int objpage, bool priv, int prot, bool locked)
{
	uint8_t hist[MMF_HIST];

	memcpy(hist, pg->hist, MMF_HIST);
	memset(pg, 0, sizeof(*pg));
	memcpy(pg->hist, hist, MMF_HIST);
	pg->mapped = 1;
	pg->obj1 = obj + 1;
	pg->objpage = objpage;
	pg->view = obj >= 0;
	pg->priv = priv;
	pg->prot = prot;
	pg->locked = locked;
	pg->own = mmf_vset_zero;
}

static void do_mmap(struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n, long res)
{
	uint64_t backing = s->args[3], prot = s->args[4], flags = s->args[6];
	bool priv = s->args[5] == MMF_MAP_PRIVATE;
	bool locked = (flags & MMF_MAP_LOCKED) || sh->mcl_future;
	int kind = backing == MMF_BACKING_ANON ? MMF_FILE_PLAIN : sh->file_kind[backing - 1];
	int obj = -1;

	/* /dev/zero: MAP_SHARED makes a new shmem object, MAP_PRIVATE is anon. */
	if (kind == MMF_FILE_DEVZERO)
		backing = MMF_BACKING_ANON;

	if (res < 0) {
		/* A failed MAP_FIXED may already have unmapped the old range. */
		if (flags & MMF_MAP_FIXED)
			for (int i = 0; i < n; i++)
				mmf_shadow_lose_page(sh, &sh->pages[idx + i]);
		return;
	}
	if (backing != MMF_BACKING_ANON) {
		obj = sh->file_obj[backing - 1];
		if (obj < 0 || (sh->contested_files & (1u << (backing - 1)))) {
			for (int i = 0; i < n; i++)
				mmf_shadow_lose_page(sh, &sh->pages[idx + i]);
			return;
		}
	} else if (!priv) {
		obj = mmf_shadow_obj_new(sh, n, false);
		if (obj < 0) {
			for (int i = 0; i < n; i++)
				mmf_shadow_lose_page(sh, &sh->pages[idx + i]);
			return;
		}
	}
	for (int i = 0; i < n; i++) {
		struct mmf_shadow_page *pg = &sh->pages[idx + i];
		/* The file offset is the page argument; anon shared starts at 0. */
		int objpage = backing == MMF_BACKING_ANON ? i : (int)s->args[1] + i;

		map_page(sh, pg, obj, objpage, priv, prot, locked);
		if ((flags & (MMF_MAP_POPULATE | MMF_MAP_LOCKED)) || sh->mcl_future)
			mmf_shadow_maybe_cow(sh, pg);
		/* secretmem makes its VMAs VM_LOCKED; VmLck may or may not count it. */
		if (kind == MMF_FILE_SECRET) {
			pg->lock_unknown = 1;
			sh->locks_exact = false;
		}
	}
}

void mmf_rule_mmap(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	do_mmap(sh, s, idx, n, res);
	/* The old pages of the range are gone. */
	if (res >= 0)
		mmf_pins_move(sh, idx, n, 0, 0);
}

void mmf_rule_munmap(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	for (int i = 0; i < n && res >= 0; i++)
		mmf_shadow_unmap_page(&sh->pages[idx + i]);
	if (res >= 0)
		mmf_pins_move(sh, idx, n, 0, 0);
}

/* Pages that grow a mapping continue the VMA of the page before them. */
static void extend(struct mmf_shadow *sh, int from, int idx, int n)
{
	struct mmf_shadow_page prev = sh->pages[from];

	for (int i = 0; i < n; i++) {
		struct mmf_shadow_page *pg = &sh->pages[idx + i];

		if (prev.lost || !prev.mapped) {
			mmf_shadow_lose_page(sh, pg);
			continue;
		}
		map_page(sh, pg, mmf_page_obj(&prev), prev.objpage + 1 + i, prev.priv, prev.prot,
			 prev.locked);
		/* Same VMA, same flags: fork behaviour and lock state. */
		pg->wipe = prev.wipe;
		pg->wipe_maybe = prev.wipe_maybe;
		pg->dontfork = prev.dontfork;
		pg->lock_unknown = prev.lock_unknown;
		if (prev.locked || prev.lock_unknown)
			mmf_shadow_maybe_cow(sh, pg);
	}
}

/*
 * MREMAP_DONTUNMAP clears VM_LOCKED on the whole source VMA, not only on the
 * moved range (mm/mremap.c, dontunmap_complete()). The model does not know
 * where that VMA ends: the locked pages next to the range may or may not
 * have been in it.
 */
static void dontunmap_unlocks(struct mmf_shadow *sh, int idx, int n)
{
	int first = idx - idx % MMF_SLOT_PAGES, end = first + MMF_SLOT_PAGES;

	for (int i = idx - 1; i >= first && sh->pages[i].mapped && sh->pages[i].locked; i--)
		sh->pages[i].lock_unknown = 1;
	for (int i = idx + n; i < end && sh->pages[i].mapped && sh->pages[i].locked; i++)
		sh->pages[i].lock_unknown = 1;
}

static void do_mremap(struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n, long res)
{
	int dst = s->args[3] * MMF_SLOT_PAGES + s->args[4];
	int n2 = mmf_slot_clip(dst, s->args[5]);
	uint64_t flags = s->args[6];
	struct mmf_shadow_page *tmp;
	int keep;

	for (int i = 0; i < n; i++)
		if (sh->pages[idx + i].locked)
			sh->locks_exact = false;
	if (res < 0) {
		for (int i = 0; i < n; i++)
			mmf_shadow_lose_page(sh, &sh->pages[idx + i]);
		if (flags & MMF_MREMAP_FIXED)
			for (int i = 0; i < n2; i++)
				mmf_shadow_lose_page(sh, &sh->pages[dst + i]);
		return;
	}
	if (res == idx) {
		for (int i = n2; i < n; i++)
			mmf_shadow_unmap_page(&sh->pages[idx + i]);
		n2 = mmf_slot_clip(idx, n2);
		if (n2 > n)
			extend(sh, idx + n - 1, idx + n, n2 - n);
		return;
	}
	dst = res;
	n2 = mmf_slot_clip(dst, n2);
	keep = MIN(n, n2);
	tmp = mmf_xmalloc(n * sizeof(*tmp));
	memcpy(tmp, &sh->pages[idx], n * sizeof(*tmp));
	for (int i = 0; i < n; i++) {
		struct mmf_shadow_page *pg = &sh->pages[idx + i];

		if (!(flags & MMF_MREMAP_DONTUNMAP)) {
			mmf_shadow_unmap_page(pg);
			continue;
		}
		/* The source stays mapped, empty: refaults see zero or the file. */
		pg->locked = 0;
		if (mmf_page_obj(pg) < 0)
			pg->own = mmf_vset_zero;
		else if (pg->priv)
			pg->view = 1, pg->maybe_cow = 0;
	}
	if ((flags & MMF_MREMAP_DONTUNMAP) && tmp[0].locked)
		dontunmap_unlocks(sh, idx, n);
	for (int i = 0; i < keep; i++) {
		uint8_t hist[MMF_HIST];

		memcpy(hist, sh->pages[dst + i].hist, MMF_HIST);
		sh->pages[dst + i] = tmp[i];
		memcpy(sh->pages[dst + i].hist, hist, MMF_HIST);
		/*
		 * Since 6.17 a move may span several VMAs and gaps; what the
		 * target holds across a source gap is not what mremap(2)
		 * says (seen on 6.18: the old mapping stays), so don't guess.
		 */
		if (!tmp[i].mapped)
			mmf_shadow_lose_page(sh, &sh->pages[dst + i]);
	}
	if (n2 > n)
		extend(sh, dst + n - 1, dst + n, n2 - n);
	free(tmp);
}

void mmf_rule_mremap(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	do_mremap(sh, s, idx, n, res);
	if (res < 0)
		return;
	/* The pages moved: their pins go along, DONTUNMAP's source has none. */
	if (res != idx) {
		mmf_pins_move(sh, idx, n, res, s->args[5]);
		if (s->args[6] & MMF_MREMAP_DONTUNMAP)
			mmf_pins_unpin(sh, idx, n, false);
	}
	/* The target range is touched too. */
	mmf_shadow_touch_range(sh, res, mmf_slot_clip(res, s->args[5]), si);
}

/*
 * mprotect_fixup() populates a private VM_LOCKED VMA that becomes writable,
 * breaking COW of its file pages as mlock() does. 0xff: prot unknown.
 */
static void set_prot(struct mmf_shadow *sh, struct mmf_shadow_page *pg, int prot)
{
	bool was_writable = pg->prot != 0xff && (pg->prot & MMF_PROT_WRITE);

	pg->prot = prot;
	if (!was_writable && (pg->locked || pg->lock_unknown) && pg->mapped && !pg->lost)
		mmf_shadow_maybe_cow(sh, pg);
}

void mmf_rule_mprotect(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	for (int i = 0; i < n; i++)
		set_prot(sh, &sh->pages[idx + i], res < 0 ? 0xff : s->args[3]);
}

void mmf_rule_special_map(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	/* Pages of the kernel's: not predicted. */
	for (int i = 0; i < MIN(res, (long)n); i++)
		mmf_shadow_lose_page(sh, &sh->pages[idx + i]);
}

/*
 * Sealing keeps every page's content and mapping; what a sealed range
 * later refuses (EPERM) fails, and each call's rule takes its failure. It
 * is noted for the errors the model predicts: the seal is checked first.
 */
void mmf_rule_mseal(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	for (int i = 0; i < n && res >= 0; i++)
		sh->pages[idx + i].sealed = 1;
}
