// SPDX-License-Identifier: GPL-2.0
/*
 * Shadow model rules, one per call, written from the man pages and mm/
 * semantics. Where a failed call may have had partial effects (madvise
 * walks VMAs in order and stops at the first error) the prediction becomes
 * the union of before and after, which is still sound.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/shadow.h"
#include "oracle/shadow_c.h"
#include "oracle/shadow_int.h"
#include "util/util.h"

/* UAPI values used by the rules (the model spells them, see calls.c). */
enum {
	PROT_W = 0x2,
	SHARE_PRIVATE = 0x2,
	M_FIXED = 0x10, M_LOCKED = 0x2000, M_POPULATE = 0x8000,
	MR_MAYMOVE = 0x1, MR_FIXED = 0x2, MR_DONTUNMAP = 0x4,
	ML_ONFAULT = 0x1,
	MCL_CUR = 0x1, MCL_FUT = 0x2, MCL_ONF = 0x4,
	A_DONTNEED = 4, A_FREE = 8, A_REMOVE = 9, A_DONTFORK = 10, A_DOFORK = 11,
	A_WIPEONFORK = 18, A_KEEPONFORK = 19, A_POPULATE_WRITE = 23,
	A_DONTNEED_LOCKED = 24, A_GUARD_INSTALL = 102, A_GUARD_REMOVE = 103,
};

static const struct mmf_vset zero_set = { 1, { 0 } };
static const struct mmf_vset unknown_set;

static struct mmf_vset vset_one(uint64_t v)
{
	struct mmf_vset s = { 1, { v } };

	return s;
}

/* Union; too many candidates means the model stops predicting. */
static void vset_union(struct mmf_vset *a, const struct mmf_vset *b)
{
	if (!a->n || !b->n) {
		a->n = 0;
		return;
	}
	for (int i = 0; i < b->n; i++) {
		int j;

		for (j = 0; j < a->n && a->v[j] != b->v[i]; j++)
			;
		if (j < a->n)
			continue;
		if (a->n == MMF_VSET_MAX) {
			a->n = 0;
			return;
		}
		a->v[a->n++] = b->v[i];
	}
}

static void init_fields(struct mmf_shadow *sh, uint32_t nonce)
{
	sh->nonce = nonce & 0xffffff;
	sh->locks_exact = true;
	for (int f = 0; f < MMF_NR_FILES; f++)
		sh->file_obj[f] = -1;
}

void mmf_shadow_init(struct mmf_shadow *sh, uint32_t nonce)
{
	memset(sh, 0, sizeof(*sh));
	init_fields(sh, nonce);
}

void mmf_shadow_free(struct mmf_shadow *sh)
{
	for (int o = 0; o < MMF_SHADOW_OBJS; o++)
		free(sh->objs[o].pages);
}

struct mmf_shadow *mmf_shadow_new(uint32_t nonce)
{
	struct mmf_shadow *sh = xcalloc(1, sizeof(*sh));

	init_fields(sh, nonce);
	return sh;
}

void mmf_shadow_delete(struct mmf_shadow *sh)
{
	mmf_shadow_free(sh);
	free(sh);
}

uint64_t mmf_shadow_word(const struct mmf_shadow *sh, uint64_t tag, int idx)
{
	if (!tag)
		return 0;
	return (uint64_t)((uint32_t)tag << 24 | sh->nonce) << 32 | (uint32_t)(idx + 1);
}

bool mmf_stmt_range(const struct mmf_stmt *s, int *idx, int *n)
{
	if (s->id < 0 || !(mmf_calls[s->id].flags & MMF_CALL_RANGE))
		return false;
	*idx = s->args[0] * MMF_SLOT_PAGES + s->args[1];
	*n = MIN((int)s->args[2], MMF_ARENA_PAGES - *idx);
	return true;
}

static int obj_new(struct mmf_shadow *sh, int npages, bool unknown)
{
	for (int o = 0; o < MMF_SHADOW_OBJS; o++) {
		struct mmf_shadow_obj *ob = &sh->objs[o];

		if (ob->live)
			continue;
		ob->live = true;
		ob->npages = npages;
		ob->pages = xcalloc(npages, sizeof(*ob->pages));
		for (int i = 0; i < npages; i++)
			ob->pages[i] = unknown ? unknown_set : zero_set;
		if (unknown)
			sh->contested_objs |= 1ull << o;
		return o;
	}
	return -1;
}

static struct mmf_vset *obj_page(struct mmf_shadow *sh, int o, int pg)
{
	if (o < 0 || !sh->objs[o].live || pg >= sh->objs[o].npages)
		return NULL;
	return &sh->objs[o].pages[pg];
}

void mmf_shadow_touch(struct mmf_shadow_page *pg, int si)
{
	memmove(pg->hist + 1, pg->hist, MMF_HIST - 1);
	pg->hist[0] = si + 1;
}

/* A page whose mapping is unknown: also its lock state, so VmLck is too. */
void mmf_shadow_lose_page(struct mmf_shadow *sh, struct mmf_shadow_page *pg)
{
	pg->lost = 1;
	pg->own.n = 0;
	sh->locks_exact = false;
}

/* A write or hole punch through a page of unknown mapping may have hit
 * any object's page.
 */
static void lose_all_objs(struct mmf_shadow *sh)
{
	for (int o = 0; o < MMF_SHADOW_OBJS; o++)
		mmf_shadow_lose_obj(sh, o);
}

/* A populate that may break COW of a private file page: snapshot it. */
static void maybe_cow(struct mmf_shadow *sh, struct mmf_shadow_page *pg)
{
	struct mmf_vset *ov = obj_page(sh, mmf_page_obj(pg), pg->objpage);

	if (!pg->view || !pg->priv || !(pg->prot & PROT_W))
		return;
	if (pg->maybe_cow)
		vset_union(&pg->own, ov ? ov : &unknown_set);
	else
		pg->own = ov ? *ov : unknown_set;
	pg->maybe_cow = 1;
}

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
	pg->own = zero_set;
}

static void do_mmap(struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n, long res)
{
	uint64_t backing = s->args[3], prot = s->args[4], flags = s->args[6];
	bool priv = s->args[5] == SHARE_PRIVATE;
	bool locked = (flags & M_LOCKED) || sh->mcl_future;
	int kind = backing == MMF_BACKING_ANON ? MMF_FILE_PLAIN : sh->file_kind[backing - 1];
	int obj = -1;

	/* /dev/zero: MAP_SHARED makes a new shmem object, MAP_PRIVATE is anon. */
	if (kind == MMF_FILE_DEVZERO)
		backing = MMF_BACKING_ANON;

	if (res < 0) {
		/* A failed MAP_FIXED may already have unmapped the old range. */
		if (flags & M_FIXED)
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
		obj = obj_new(sh, n, false);
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
		if ((flags & (M_POPULATE | M_LOCKED)) || sh->mcl_future)
			maybe_cow(sh, pg);
		/* secretmem makes its VMAs VM_LOCKED; VmLck may or may not count it. */
		if (kind == MMF_FILE_SECRET) {
			pg->lock_unknown = 1;
			sh->locks_exact = false;
		}
	}
}

static void unmap_page(struct mmf_shadow_page *pg)
{
	pg->mapped = 0;
	pg->lost = 0;
	pg->locked = 0;
	pg->lock_unknown = 0;
	pg->own.n = 0;
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
			maybe_cow(sh, pg);
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
	for (int i = idx - 1; i >= 0 && sh->pages[i].mapped && sh->pages[i].locked; i--)
		sh->pages[i].lock_unknown = 1;
	for (int i = idx + n; i < MMF_ARENA_PAGES && sh->pages[i].mapped &&
	     sh->pages[i].locked; i++)
		sh->pages[i].lock_unknown = 1;
}

static void do_mremap(struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n, long res)
{
	int dst = s->args[3] * MMF_SLOT_PAGES + s->args[4];
	int n2 = MIN((int)s->args[5], MMF_ARENA_PAGES - dst);
	uint64_t flags = s->args[6];
	struct mmf_shadow_page *tmp;
	int keep;

	for (int i = 0; i < n; i++)
		if (sh->pages[idx + i].locked)
			sh->locks_exact = false;
	if (res < 0) {
		for (int i = 0; i < n; i++)
			mmf_shadow_lose_page(sh, &sh->pages[idx + i]);
		if (flags & MR_FIXED)
			for (int i = 0; i < n2; i++)
				mmf_shadow_lose_page(sh, &sh->pages[dst + i]);
		return;
	}
	if (res == idx) {
		for (int i = n2; i < n; i++)
			unmap_page(&sh->pages[idx + i]);
		n2 = MIN(n2, MMF_ARENA_PAGES - idx);
		if (n2 > n)
			extend(sh, idx + n - 1, idx + n, n2 - n);
		return;
	}
	dst = res;
	n2 = MIN(n2, MMF_ARENA_PAGES - dst);
	keep = MIN(n, n2);
	tmp = xmalloc(n * sizeof(*tmp));
	memcpy(tmp, &sh->pages[idx], n * sizeof(*tmp));
	for (int i = 0; i < n; i++) {
		struct mmf_shadow_page *pg = &sh->pages[idx + i];

		if (!(flags & MR_DONTUNMAP)) {
			unmap_page(pg);
			continue;
		}
		/* The source stays mapped, empty: refaults see zero or the file. */
		pg->locked = 0;
		if (mmf_page_obj(pg) < 0)
			pg->own = zero_set;
		else if (pg->priv)
			pg->view = 1, pg->maybe_cow = 0;
	}
	if ((flags & MR_DONTUNMAP) && tmp[0].locked)
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

/* DONTNEED-like zap: anonymous content is gone, files refault. */
static void zap(struct mmf_shadow_page *pg, bool maybe)
{
	/* Poison markers are zapped with the rest. */
	pg->poison &= maybe;
	if (mmf_page_obj(pg) < 0) {
		if (maybe)
			vset_union(&pg->own, &zero_set);
		else
			pg->own = zero_set;
	} else if (pg->priv && !pg->view) {
		/* Back to the file page, or still the COWed copy if it failed. */
		pg->view = 1;
		pg->maybe_cow = maybe;
	}
}

static void do_madvise(struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n, long res)
{
	uint64_t advice = s->args[3];
	bool fail = res < 0;

	for (int i = 0; i < n; i++) {
		struct mmf_shadow_page *pg = &sh->pages[idx + i];
		struct mmf_vset *ov;

		if (pg->lost && advice == A_REMOVE)
			lose_all_objs(sh);
		if (!pg->mapped || pg->lost)
			continue;
		switch (advice) {
		case A_DONTNEED:
		case A_DONTNEED_LOCKED:
			zap(pg, fail);
			break;
		case A_GUARD_INSTALL:
			zap(pg, fail);
			pg->guard = 1;
			break;
		case A_GUARD_REMOVE:
			pg->guard = fail && pg->guard;
			break;
		case A_FREE:
			/* Lazily freed: old content until reclaim, then zero. */
			if (mmf_page_obj(pg) < 0)
				vset_union(&pg->own, &zero_set);
			break;
		case A_REMOVE:
			ov = pg->view && !pg->priv ? obj_page(sh, mmf_page_obj(pg), pg->objpage) : NULL;
			/* A racing write may land after the hole, as in do_write(). */
			if (ov && (sh->contested_objs & (1ull << mmf_page_obj(pg))))
				*ov = unknown_set;
			else if (ov && fail)
				vset_union(ov, &zero_set);
			else if (ov)
				*ov = zero_set;
			break;
		case A_WIPEONFORK:
		case A_KEEPONFORK:
			if (fail)
				pg->wipe_maybe = 1;
			else
				pg->wipe = advice == A_WIPEONFORK;
			break;
		case A_DONTFORK:
			pg->dontfork = !fail;
			break;
		case A_DOFORK:
			pg->dontfork = 0;
			break;
		case A_POPULATE_WRITE:
			maybe_cow(sh, pg);
			break;
		default:
			/* Hints, reclaim and population: content stays. */
			break;
		}
	}
}

static void do_lock(struct mmf_shadow *sh, int idx, int n, bool lock, bool populate, long res)
{
	if (res < 0)
		sh->locks_exact = false;
	for (int i = 0; i < n; i++) {
		struct mmf_shadow_page *pg = &sh->pages[idx + i];

		if (!pg->mapped || pg->lost)
			continue;
		/* A failed call stops at the first hole, after changing the
		 * VMAs before it.
		 */
		if (res >= 0)
			pg->locked = lock;
		pg->lock_unknown = res < 0;
		if (lock && populate)
			maybe_cow(sh, pg);
	}
}

static void do_mlockall(struct mmf_shadow *sh, uint64_t flags, long res)
{
	sh->locks_exact = false;
	if (res < 0 && res != -ENOMEM)
		return;
	for (int i = 0; i < MMF_ARENA_PAGES; i++) {
		struct mmf_shadow_page *pg = &sh->pages[i];

		if (!pg->mapped || pg->lost)
			continue;
		if ((flags & MCL_CUR) && res >= 0) {
			pg->locked = 1;
			pg->lock_unknown = 0;
		}
		if ((flags & MCL_CUR) && !(flags & MCL_ONF))
			maybe_cow(sh, pg);
	}
	if (res >= 0)
		sh->mcl_future = flags & MCL_FUT;
}

/*
 * mprotect_fixup() populates a private VM_LOCKED VMA that becomes writable,
 * breaking COW of its file pages as mlock() does. 0xff: prot unknown.
 */
static void set_prot(struct mmf_shadow *sh, struct mmf_shadow_page *pg, int prot)
{
	bool was_writable = pg->prot != 0xff && (pg->prot & PROT_W);

	pg->prot = prot;
	if (!was_writable && (pg->locked || pg->lock_unknown) && pg->mapped && !pg->lost)
		maybe_cow(sh, pg);
}

void mmf_shadow_store(struct mmf_shadow *sh, int idx, const struct mmf_vset *w)
{
	struct mmf_shadow_page *pg = &sh->pages[idx];
	struct mmf_vset *ov;

	if (pg->lost || !pg->mapped) {
		/* Our belief was wrong: stop predicting this page. */
		mmf_shadow_lose_page(sh, pg);
		/* It may be any object's page: none can be trusted now. */
		lose_all_objs(sh);
		return;
	}
	if (pg->view && !pg->priv) {
		ov = obj_page(sh, mmf_page_obj(pg), pg->objpage);
		if (ov)
			*ov = sh->contested_objs & (1ull << mmf_page_obj(pg)) ? unknown_set : *w;
		return;
	}
	pg->view = 0;
	pg->maybe_cow = 0;
	pg->own = *w;
}

static void do_write(struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, long res)
{
	for (int i = 0; i < res; i++) {
		struct mmf_vset w = vset_one(mmf_shadow_word(sh, s->args[3], idx + i));

		mmf_shadow_store(sh, idx + i, &w);
	}
}

static void touch_range(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res,
			int idx, int n);

void mmf_shadow_apply(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int idx = 0, n = 0;
	bool range = mmf_stmt_range(s, &idx, &n);

	switch (s->id) {
	case MMF_MMAP:
		do_mmap(sh, s, idx, n, res);
		break;
	case MMF_MUNMAP:
		for (int i = 0; i < n && res >= 0; i++)
			unmap_page(&sh->pages[idx + i]);
		break;
	case MMF_MREMAP:
		do_mremap(sh, s, idx, n, res);
		break;
	case MMF_MPROTECT:
		for (int i = 0; i < n; i++)
			set_prot(sh, &sh->pages[idx + i], res < 0 ? 0xff : s->args[3]);
		break;
	case MMF_MADVISE:
		do_madvise(sh, s, idx, n, res);
		break;
	case MMF_MLOCK:
		do_lock(sh, idx, n, true, true, res);
		break;
	case MMF_MLOCK2:
		do_lock(sh, idx, n, true, !(s->args[3] & ML_ONFAULT), res);
		break;
	case MMF_MUNLOCK:
		do_lock(sh, idx, n, false, false, res);
		break;
	case MMF_MLOCKALL:
		do_mlockall(sh, s->args[0], res);
		break;
	case MMF_MUNLOCKALL:
		if (res < 0)
			break;
		for (int i = 0; i < MMF_ARENA_PAGES; i++) {
			sh->pages[i].locked = 0;
			sh->pages[i].lock_unknown = 0;
		}
		sh->mcl_future = false;
		sh->locks_exact = true;
		break;
	case MMF_WRITE:
		do_write(sh, s, idx, res);
		break;
	case MMF_MEMFD:
	case MMF_TMPFILE:
		sh->file_kind[s->args[0]] = MMF_FILE_PLAIN;
		sh->file_obj[s->args[0]] = res < 0 ? -1 :
			obj_new(sh, s->args[1], sh->contested_files & (1u << s->args[0]));
		break;
	case MMF_UFFD_CREATE ... MMF_UFFD_MOVE:
		mmf_shadow_apply_uffd(sh, s, si, res);
		break;
	default:
		/* Pins, files (their rule files); read, mincore, msync,
		 * process_madvise, swap, and placement (mbind, move_pages,
		 * migrate_pages, compaction: migration copies a page whole):
		 * content stays.
		 */
		mmf_pins_apply(sh, s, si, res);
		mmf_shadow_apply_c(sh, s, idx, n, res);
		break;
	}
	if (range && s->id != MMF_READ)
		touch_range(sh, s, si, res, idx, n);
	mmf_pins_follow(sh, s, res);
}

static void touch_range(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res,
			int idx, int n)
{
	for (int i = 0; i < n; i++) {
		mmf_shadow_touch(&sh->pages[idx + i], si);
		if (sh->contested_slots & (1u << ((idx + i) / MMF_SLOT_PAGES)))
			mmf_shadow_lose_page(sh, &sh->pages[idx + i]);
	}
	if (s->id == MMF_MREMAP && res >= 0) {
		int dst = res, n2 = MIN((int)s->args[5], MMF_ARENA_PAGES - dst);

		for (int i = 0; i < n2; i++) {
			mmf_shadow_touch(&sh->pages[dst + i], si);
			if (sh->contested_slots & (1u << ((dst + i) / MMF_SLOT_PAGES)))
				mmf_shadow_lose_page(sh, &sh->pages[dst + i]);
		}
	}
}

bool mmf_shadow_expect(const struct mmf_shadow *sh, int idx, struct mmf_vset *out)
{
	const struct mmf_shadow_page *pg = &sh->pages[idx];
	int slot = idx / MMF_SLOT_PAGES;

	if (!pg->mapped || pg->lost || (sh->contested_slots & (1u << slot)))
		return false;
	if (!pg->view) {
		*out = pg->own;
		return out->n;
	}
	if ((sh->shared_slots & (1u << slot)) || (sh->contested_objs & (1ull << mmf_page_obj(pg))) ||
	    !obj_page((struct mmf_shadow *)sh, mmf_page_obj(pg), pg->objpage))
		return false;
	*out = sh->objs[mmf_page_obj(pg)].pages[pg->objpage];
	if (pg->maybe_cow)
		vset_union(out, &pg->own);
	if (pg->uffd_zero)
		vset_union(out, &zero_set);
	return out->n;
}

void mmf_shadow_fork_child(struct mmf_shadow *sh)
{
	for (int i = 0; i < MMF_ARENA_PAGES; i++) {
		struct mmf_shadow_page *pg = &sh->pages[i];

		/* A lost page's flags are stale: whatever is there may be copied. */
		if (pg->dontfork && !pg->lost)
			unmap_page(pg);
		if (mmf_page_obj(pg) < 0 && pg->wipe)
			pg->own = zero_set;
		else if (mmf_page_obj(pg) < 0 && pg->wipe_maybe)
			vset_union(&pg->own, &zero_set);
		pg->locked = 0;
	}
	sh->mcl_future = false;
	sh->locks_exact = true;
	mmf_pins_fork_child(sh);
}

void mmf_shadow_lose_slot(struct mmf_shadow *sh, int m)
{
	for (int i = 0; i < MMF_SLOT_PAGES; i++)
		mmf_shadow_lose_page(sh, &sh->pages[m * MMF_SLOT_PAGES + i]);
}

void mmf_shadow_lose_obj(struct mmf_shadow *sh, int o)
{
	struct mmf_shadow_obj *ob = &sh->objs[o];

	for (int i = 0; ob->live && i < ob->npages; i++)
		ob->pages[i] = unknown_set;
}

long mmf_shadow_locked_pages(const struct mmf_shadow *sh)
{
	long n = 0;

	for (int i = 0; i < MMF_ARENA_PAGES; i++) {
		if (sh->pages[i].lost || (sh->pages[i].mapped && sh->pages[i].lock_unknown))
			return -1;
		n += sh->pages[i].mapped && sh->pages[i].locked;
	}
	return n;
}

void mmf_vset_union(struct mmf_vset *a, const struct mmf_vset *b)
{
	vset_union(a, b);
}

void mmf_shadow_maybe_cow(struct mmf_shadow *sh, int idx)
{
	maybe_cow(sh, &sh->pages[idx]);
}

const char *mmf_shadow_backing_name(const struct mmf_shadow *sh, int idx)
{
	const struct mmf_shadow_page *pg = &sh->pages[idx];

	if (mmf_page_obj(pg) < 0)
		return "anon";
	if (!pg->priv)
		return "shared";
	return pg->view ? "private file" : "private COWed";
}

/* The helpers the rules of shadow_c.c share (shadow_int.h). */
int mmf_shadow_obj_new(struct mmf_shadow *sh, int npages, bool unknown)
{
	return obj_new(sh, npages, unknown);
}

struct mmf_vset *mmf_shadow_obj_page(struct mmf_shadow *sh, int o, int pg)
{
	return obj_page(sh, o, pg);
}

void mmf_vset_union_zero(struct mmf_vset *v)
{
	vset_union(v, &zero_set);
}

void mmf_shadow_zap_page(struct mmf_shadow *sh, int idx, bool maybe)
{
	zap(&sh->pages[idx], maybe);
}
