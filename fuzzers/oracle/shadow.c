// SPDX-License-Identifier: GPL-2.0
/*
 * The shadow model's core: pages, objects and what every rule builds on
 * (shadow_int.h). The rule of each call is in rules/FAMILY.c, dispatched by
 * rules.c. Where a failed call may have had partial effects (madvise walks
 * VMAs in order and stops at the first error) a rule predicts the union of
 * before and after, which is still sound.
 */
#include <stdlib.h>
#include <string.h>

#include "model/arena.h"
#include "model/uapi.h"
#include "oracle/shadow_int.h"
#include "runtime/base.h"
#include "util/util.h"

const struct mmf_vset mmf_vset_zero = { 1, { 0 } };
const struct mmf_vset mmf_vset_unknown;

/* Union; too many candidates means the model stops predicting. */
void mmf_vset_union(struct mmf_vset *a, const struct mmf_vset *b)
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

/* Same contents: the same n and the same first n values, in order. */
static bool vset_same(const struct mmf_vset *a, const struct mmf_vset *b)
{
	if (a->n != b->n)
		return false;
	/* A loop, not memcmp: it runs for every page of every model compared. */
	for (int i = 0; i < a->n; i++)
		if (a->v[i] != b->v[i])
			return false;
	return true;
}

static bool page_same(const struct mmf_shadow_page *a, const struct mmf_shadow_page *b)
{
	return a->mapped == b->mapped && a->lost == b->lost && a->locked == b->locked &&
	       a->wipe == b->wipe && a->wipe_maybe == b->wipe_maybe &&
	       a->dontfork == b->dontfork && a->view == b->view && a->maybe_cow == b->maybe_cow &&
	       a->priv == b->priv && a->guard == b->guard && a->lock_unknown == b->lock_unknown &&
	       a->uffd_zero == b->uffd_zero && a->poison == b->poison &&
	       a->pin_maybe == b->pin_maybe && a->prot == b->prot && a->obj1 == b->obj1 &&
	       !memcmp(a->hist, b->hist, sizeof(a->hist)) && a->objpage == b->objpage &&
	       a->pinpage == b->pinpage && vset_same(&a->own, &b->own);
}

/* The entries in the pipe; those past them are not read. */
static bool pipe_same(const struct mmf_pipe *a, const struct mmf_pipe *b)
{
	if (a->head != b->head || a->nr != b->nr)
		return false;
	for (int k = 0; k < a->nr; k++) {
		const struct mmf_pipe_ent *x = &a->e[(a->head + k) % MMF_PIPE_PAGES];
		const struct mmf_pipe_ent *y = &b->e[(b->head + k) % MMF_PIPE_PAGES];

		if (!vset_same(&x->v, &y->v) || x->idx1 != y->idx1 || x->obj1 != y->obj1 ||
		    x->objpage != y->objpage || x->si != y->si)
			return false;
	}
	return true;
}

static bool obj_same(const struct mmf_shadow_obj *a, const struct mmf_shadow_obj *b)
{
	if (a->live != b->live || a->npages != b->npages || !a->pages != !b->pages)
		return false;
	for (int i = 0; a->pages && i < a->npages; i++)
		if (!vset_same(&a->pages[i], &b->pages[i]))
			return false;
	return true;
}

bool mmf_shadow_same(const struct mmf_shadow *a, const struct mmf_shadow *b)
{
	if (a->nonce != b->nonce || a->locks_exact != b->locks_exact ||
	    a->mcl_future != b->mcl_future || a->contested_slots != b->contested_slots ||
	    a->shared_slots != b->shared_slots || a->contested_files != b->contested_files ||
	    a->contested_objs != b->contested_objs ||
	    memcmp(a->file_obj, b->file_obj, sizeof(a->file_obj)) ||
	    memcmp(a->file_kind, b->file_kind, sizeof(a->file_kind)) ||
	    a->pins.contested_pipes != b->pins.contested_pipes ||
	    a->pins.ring_idx != b->pins.ring_idx || a->pins.ring_n != b->pins.ring_n)
		return false;
	for (int p = 0; p < MMF_NR_PIPES; p++)
		if (!pipe_same(&a->pins.pipes[p], &b->pins.pipes[p]))
			return false;
	for (int i = 0; i < MMF_ARENA_PAGES; i++)
		if (!page_same(&a->pages[i], &b->pages[i]))
			return false;
	for (int o = 0; o < MMF_SHADOW_OBJS; o++)
		if (!obj_same(&a->objs[o], &b->objs[o]))
			return false;
	return true;
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
	struct mmf_shadow *sh = mmf_xcalloc(1, sizeof(*sh));

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
	return rt_word(sh->nonce, tag, idx);
}

bool mmf_stmt_range(const struct mmf_stmt *s, int *idx, int *n)
{
	if (s->id < 0 || !(mmf_calls[s->id].flags & MMF_CALL_RANGE))
		return false;
	*idx = s->args[0] * MMF_SLOT_PAGES + s->args[1];
	*n = mmf_slot_clip(*idx, s->args[2]);
	return true;
}

bool mmf_stmt_second_range(const struct mmf_stmt *s, int *idx, int *n)
{
	const struct mmf_call_desc *d;
	int first, nfirst;

	if (!mmf_stmt_range(s, &first, &nfirst) ||
	    !(mmf_calls[s->id].flags & (MMF_CALL_MOVES | MMF_CALL_RANGE2)))
		return false;
	d = &mmf_calls[s->id];
	*idx = s->args[3] * MMF_SLOT_PAGES + s->args[4];
	if (d->nr_args > 5 && d->args[5].type == MMF_ARG_NPAGES)
		*n = mmf_slot_clip(*idx, s->args[5]);
	else
		*n = mmf_slot_clip(*idx, nfirst);
	return true;
}

void mmf_uffd_move_range(const struct mmf_stmt *s, int *dst, int *src, int *n)
{
	*dst = s->args[0] * MMF_SLOT_PAGES + s->args[1];
	mmf_stmt_second_range(s, src, n);
}

uint8_t mmf_shadow_range_slots(int idx, int n)
{
	uint8_t m = 0;

	for (int s = idx / MMF_SLOT_PAGES; n > 0 && s <= (idx + n - 1) / MMF_SLOT_PAGES; s++)
		m |= 1u << s;
	return m;
}

int mmf_shadow_obj_new(struct mmf_shadow *sh, int npages, bool unknown)
{
	for (int o = 0; o < MMF_SHADOW_OBJS; o++) {
		struct mmf_shadow_obj *ob = &sh->objs[o];

		if (ob->live)
			continue;
		ob->live = true;
		ob->npages = npages;
		ob->pages = mmf_xcalloc(npages, sizeof(*ob->pages));
		for (int i = 0; i < npages; i++)
			ob->pages[i] = unknown ? mmf_vset_unknown : mmf_vset_zero;
		if (unknown)
			sh->contested_objs |= 1ull << o;
		return o;
	}
	return -1;
}

struct mmf_vset *mmf_shadow_obj_page(struct mmf_shadow *sh, int o, int pg)
{
	if (o < 0 || !sh->objs[o].live || pg >= sh->objs[o].npages)
		return NULL;
	return &sh->objs[o].pages[pg];
}

void mmf_shadow_lose_objs(struct mmf_shadow *sh)
{
	for (int o = 0; o < MMF_SHADOW_OBJS; o++)
		mmf_shadow_lose_obj(sh, o);
}

bool mmf_shadow_file_contested(const struct mmf_shadow *sh, int f, int o)
{
	return (sh->contested_files & (1u << f)) || (sh->contested_objs & (1ull << o));
}

uint64_t mmf_shadow_file_word(const struct mmf_shadow *sh, uint64_t tag, int pg)
{
	/* Past the arena's pages: told apart from any page written through a mapping. */
	return mmf_shadow_word(sh, tag, MMF_ARENA_PAGES + pg);
}

bool mmf_shadow_expect_file(const struct mmf_shadow *sh, int f, int pg, struct mmf_vset *out)
{
	int o = sh->file_obj[f];
	struct mmf_vset *ov;

	if (o < 0 || mmf_shadow_file_contested(sh, f, o))
		return false;
	ov = mmf_shadow_obj_page((struct mmf_shadow *)sh, o, pg);
	if (!ov)
		return false;
	*out = *ov;
	return out->n;
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

void mmf_shadow_touch_range(struct mmf_shadow *sh, int idx, int n, int si)
{
	for (int i = 0; i < n; i++) {
		mmf_shadow_touch(&sh->pages[idx + i], si);
		if (sh->contested_slots & (1u << ((idx + i) / MMF_SLOT_PAGES)))
			mmf_shadow_lose_page(sh, &sh->pages[idx + i]);
	}
}

void mmf_shadow_maybe_cow(struct mmf_shadow *sh, struct mmf_shadow_page *pg)
{
	struct mmf_vset *ov = mmf_shadow_obj_page(sh, mmf_page_obj(pg), pg->objpage);

	if (!pg->view || !pg->priv || !(pg->prot & MMF_PROT_WRITE))
		return;
	if (pg->maybe_cow)
		mmf_vset_union(&pg->own, ov ? ov : &mmf_vset_unknown);
	else
		pg->own = ov ? *ov : mmf_vset_unknown;
	pg->maybe_cow = 1;
}

void mmf_shadow_unmap_page(struct mmf_shadow_page *pg)
{
	pg->mapped = 0;
	pg->lost = 0;
	pg->locked = 0;
	pg->lock_unknown = 0;
	pg->own.n = 0;
}

void mmf_shadow_zap(struct mmf_shadow_page *pg, bool maybe)
{
	/* Poison markers are zapped with the rest. */
	pg->poison &= maybe;
	if (mmf_page_obj(pg) < 0) {
		if (maybe)
			mmf_vset_union(&pg->own, &mmf_vset_zero);
		else
			pg->own = mmf_vset_zero;
	} else if (pg->priv && !pg->view) {
		/* Back to the file page, or still the COWed copy if it failed. */
		pg->view = 1;
		pg->maybe_cow = maybe;
	}
}

void mmf_shadow_store(struct mmf_shadow *sh, int idx, const struct mmf_vset *w)
{
	struct mmf_shadow_page *pg = &sh->pages[idx];
	struct mmf_vset *ov;

	if (pg->lost || !pg->mapped) {
		/* Our belief was wrong: stop predicting this page. */
		mmf_shadow_lose_page(sh, pg);
		/* It may be any object's page: none can be trusted now. */
		mmf_shadow_lose_objs(sh);
		return;
	}
	if (pg->view && !pg->priv) {
		ov = mmf_shadow_obj_page(sh, mmf_page_obj(pg), pg->objpage);
		if (ov)
			*ov = sh->contested_objs & (1ull << mmf_page_obj(pg)) ? mmf_vset_unknown : *w;
		return;
	}
	pg->view = 0;
	pg->maybe_cow = 0;
	pg->own = *w;
}

struct mmf_vset mmf_shadow_load(const struct mmf_shadow *sh, int idx)
{
	struct mmf_vset v;

	if (!mmf_shadow_expect(sh, idx, &v))
		v = mmf_vset_unknown;
	return v;
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
	    !mmf_shadow_obj_page((struct mmf_shadow *)sh, mmf_page_obj(pg), pg->objpage))
		return false;
	*out = sh->objs[mmf_page_obj(pg)].pages[pg->objpage];
	if (pg->maybe_cow)
		mmf_vset_union(out, &pg->own);
	if (pg->uffd_zero)
		mmf_vset_union(out, &mmf_vset_zero);
	return out->n;
}

void mmf_shadow_unpin_all(struct mmf_shadow *sh)
{
	for (int i = 0; i < MMF_ARENA_PAGES; i++) {
		sh->pages[i].pinpage = 0;
		sh->pages[i].pin_maybe = 0;
	}
	sh->pins.ring_n = 0;
}

void mmf_shadow_fork_child(struct mmf_shadow *sh)
{
	for (int i = 0; i < MMF_ARENA_PAGES; i++) {
		struct mmf_shadow_page *pg = &sh->pages[i];

		/* A lost page's flags are stale: whatever is there may be copied. */
		if (pg->dontfork && !pg->lost)
			mmf_shadow_unmap_page(pg);
		if (mmf_page_obj(pg) < 0 && pg->wipe)
			pg->own = mmf_vset_zero;
		else if (mmf_page_obj(pg) < 0 && pg->wipe_maybe)
			mmf_vset_union(&pg->own, &mmf_vset_zero);
		pg->locked = 0;
	}
	sh->mcl_future = false;
	sh->locks_exact = true;
	mmf_shadow_unpin_all(sh);
	/* The child makes its own pipes and ring; its pages are copies. */
	memset(&sh->pins, 0, sizeof(sh->pins));
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
		ob->pages[i] = mmf_vset_unknown;
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

const char *mmf_shadow_backing_name(const struct mmf_shadow *sh, int idx)
{
	const struct mmf_shadow_page *pg = &sh->pages[idx];

	if (mmf_page_obj(pg) < 0)
		return "anon";
	if (!pg->priv)
		return "shared";
	return pg->view ? "private file" : "private COWed";
}
