// SPDX-License-Identifier: GPL-2.0
/*
 * What the parties of a concurrency group race on. The main line and the
 * threads share one address space; a fork child has its own copy of it and
 * shares only object-backed (shmem, memfd, tmpfs) pages with the others.
 */
#include <string.h>

#include "oracle/rules.h"
#include "util/util.h"

struct party {
	bool fork;
	uint8_t slots;
	uint8_t files;
	uint8_t creates;
	uint8_t pins;		/* pipes and the ring it uses (pins.c) */
};

static void note(struct party *pt, const struct mmf_stmt *s)
{
	const struct mmf_call_desc *d = &mmf_calls[s->id];
	int idx, n;

	if (mmf_stmt_range(s, &idx, &n))
		pt->slots |= mmf_shadow_range_slots(idx, n);
	/* mremap's target, uffd_move's source, a second iovec. */
	if (mmf_stmt_second_range(s, &idx, &n))
		pt->slots |= mmf_shadow_range_slots(idx, n);
	/* A mapping of a file (mmap's backing) races on it. */
	for (int i = 0; i < d->nr_args; i++)
		if (d->args[i].type == MMF_ARG_BACKING && s->args[i] != MMF_BACKING_ANON)
			pt->files |= 1u << (s->args[i] - 1);
	/* Every VMA of the address space: lock state, and the COW of private
	 * file views that populating them does. A child's are its own.
	 */
	if ((d->flags & MMF_CALL_LOCKS) && (d->flags & MMF_CALL_GLOBAL) && !pt->fork)
		pt->slots = 0xff;
	mmf_pin_note(s, &pt->slots, &pt->files, &pt->pins);
	/* Calls on a file slot (pwrite, ftruncate...) race on its object;
	 * the ones that define it (memfd, tmpfile...) re-create it.
	 */
	if (d->nr_args && d->args[0].type == MMF_ARG_FILE) {
		pt->files |= 1u << s->args[0];
		if (d->flags & MMF_CALL_DEFINES)
			pt->creates |= 1u << s->args[0];
	}
}

/* Party 0 is the main line, then one per block in program order. */
static int parties(const struct mmf_prog *p, int first, int join, struct party *pt)
{
	int nr = 1, cur = 0;

	memset(pt, 0, sizeof(*pt) * (MMF_MAX_BLOCKS + 1));
	for (int i = first; i < join && i < p->nr; i++) {
		const struct mmf_stmt *s = &p->stmts[i];

		if (s->id == MMF_COMMENT)
			continue;
		switch (mmf_calls[s->id].block) {
		case MMF_BLOCK_FORK:
		case MMF_BLOCK_THREAD:
			if (nr > MMF_MAX_BLOCKS)
				return nr;
			cur = nr++;
			pt[cur].fork = s->id == MMF_FORK;
			continue;
		case MMF_BLOCK_END:
			cur = 0;
			continue;
		default:
			note(&pt[cur], s);
		}
	}
	return nr;
}

static uint64_t reached_objs(const struct mmf_shadow *sh, const struct party *pt)
{
	uint64_t objs = 0;

	for (int m = 0; m < MMF_NR_MAPS; m++) {
		if (!(pt->slots & (1u << m)))
			continue;
		for (int i = 0; i < MMF_SLOT_PAGES; i++) {
			const struct mmf_shadow_page *pg = &sh->pages[m * MMF_SLOT_PAGES + i];

			if (pg->mapped && mmf_page_obj(pg) >= 0)
				objs |= 1ull << mmf_page_obj(pg);
		}
	}
	for (int f = 0; f < MMF_NR_FILES; f++)
		if ((pt->files & (1u << f)) && sh->file_obj[f] >= 0)
			objs |= 1ull << sh->file_obj[f];
	return objs;
}

void mmf_shadow_group_begin(struct mmf_shadow *sh, const struct mmf_prog *p, int first, int join)
{
	struct party pt[MMF_MAX_BLOCKS + 1];
	int nr = parties(p, first, join, pt);
	uint64_t objs[MMF_MAX_BLOCKS + 1];

	for (int a = 0; a < nr; a++) {
		/* READ_FIXED writes the pinned pages wherever mremap put them. */
		if ((pt[a].pins & MMF_PINS_RING) && !pt[a].fork)
			pt[a].slots |= mmf_pins_ring_slots(sh);
		objs[a] = reached_objs(sh, &pt[a]);
	}
	for (int a = 0; a < nr; a++) {
		for (int b = a + 1; b < nr; b++) {
			uint8_t both = pt[a].slots & pt[b].slots;
			uint8_t files = pt[a].files & pt[b].files;

			if (pt[a].fork || pt[b].fork) {
				sh->shared_slots |= both;
			} else {
				sh->contested_slots |= both;
				if (files & (pt[a].creates | pt[b].creates))
					sh->contested_files |= files & (pt[a].creates | pt[b].creates);
			}
			sh->contested_objs |= objs[a] & objs[b];
			/* Each process has its own pipes and ring. */
			if (!pt[a].fork && !pt[b].fork)
				mmf_pins_contest(sh, pt[a].pins & pt[b].pins);
		}
	}
	for (int m = 0; m < MMF_NR_MAPS; m++)
		if (sh->contested_slots & (1u << m))
			mmf_shadow_lose_slot(sh, m);
	for (int o = 0; o < MMF_SHADOW_OBJS; o++)
		if (sh->contested_objs & (1ull << o))
			mmf_shadow_lose_obj(sh, o);
	/* Lock counts raced on by threads are not predictable. */
	for (int a = 1; a < nr; a++)
		if (!pt[a].fork)
			sh->locks_exact = false;
}

/* Index of the block opened at statement bi among the group's parties. */
static int party_of(const struct mmf_prog *p, int first, int bi)
{
	int k = 0;

	for (int i = first; i <= bi; i++)
		if (p->stmts[i].id == MMF_FORK || p->stmts[i].id == MMF_THREAD)
			k++;
	return k;
}

void mmf_shadow_forked(struct mmf_shadow *sh, const struct mmf_prog *p, int first, int bi)
{
	struct party pt[MMF_MAX_BLOCKS + 1];
	int k = party_of(p, first, bi);
	uint64_t objs;

	if (k >= parties(p, first, p->nr, pt))
		return;
	objs = reached_objs(sh, &pt[k]);
	sh->contested_objs |= objs;
	for (int o = 0; o < MMF_SHADOW_OBJS; o++)
		if (objs & (1ull << o))
			mmf_shadow_lose_obj(sh, o);
}

void mmf_shadow_child_of(struct mmf_shadow *sh, const struct mmf_prog *p, int first, int bi)
{
	struct party pt[MMF_MAX_BLOCKS + 1];
	int k = party_of(p, first, bi);
	int nr = parties(p, first, p->nr, pt);

	sh->contested_slots = 0;
	sh->contested_files = 0;
	for (int a = 1; a < k && a < nr; a++)
		if (!pt[a].fork)
			sh->contested_slots |= pt[a].slots;
	for (int m = 0; m < MMF_NR_MAPS; m++)
		if (sh->contested_slots & (1u << m))
			mmf_shadow_lose_slot(sh, m);
	mmf_pin_child_of(sh, p, first, bi);
}

void mmf_shadow_group_end(struct mmf_shadow *sh)
{
	sh->contested_slots = 0;
	sh->shared_slots = 0;
	sh->contested_files = 0;
	sh->contested_objs = 0;
	sh->pins.contested_pipes = 0;
}
