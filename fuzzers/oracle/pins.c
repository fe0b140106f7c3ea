// SPDX-License-Identifier: GPL-2.0
/*
 * The pins' state between calls: a vmsplice'd page's pipe entry follows
 * the page it references, taking every content the page takes, until the
 * page leaves the mapping (munmap, mmap over it, a zap); an mremap takes
 * the entry along. The io_uring buffer's pins stay on their pages until
 * those leave. The pin calls' own rules are in rules/pin.c.
 */
#include <string.h>

#include "oracle/shadow_int.h"

static void follow_pipe(struct mmf_shadow *sh, struct mmf_pipe *pp)
{
	for (int k = 0; k < pp->nr; k++) {
		struct mmf_pipe_ent *e = &pp->e[(pp->head + k) % MMF_PIPE_PAGES];

		if (e->idx1 && !sh->pages[e->idx1 - 1].mapped)
			e->idx1 = 0;
		if (e->idx1) {
			struct mmf_vset v = mmf_shadow_load(sh, e->idx1 - 1);

			mmf_vset_union(&e->v, &v);
		}
		if (e->obj1) {
			int o = e->obj1 - 1;
			struct mmf_vset v = mmf_vset_unknown;

			if (sh->objs[o].live && e->objpage < sh->objs[o].npages &&
			    !(sh->contested_objs & (1ull << o)))
				v = sh->objs[o].pages[e->objpage];
			mmf_vset_union(&e->v, &v);
		}
	}
}

void mmf_pins_follow(struct mmf_shadow *sh, const struct mmf_stmt *s, long res)
{
	int idx, n;

	for (int p = 0; p < MMF_NR_PIPES; p++)
		follow_pipe(sh, &sh->pins.pipes[p]);
	if (!mmf_stmt_range(s, &idx, &n))
		return;
	/* The pinned page left the mapping: what READ_FIXED writes is lost. */
	for (int i = 0; i < n; i++)
		if (!sh->pages[idx + i].mapped)
			sh->pages[idx + i].pinpage = 0;
}

void mmf_pins_move(struct mmf_shadow *sh, int idx, int n, int to, int keep)
{
	for (int p = 0; p < MMF_NR_PIPES; p++) {
		struct mmf_pipe *pp = &sh->pins.pipes[p];

		for (int k = 0; k < pp->nr; k++) {
			struct mmf_pipe_ent *e = &pp->e[(pp->head + k) % MMF_PIPE_PAGES];
			int page = e->idx1 - 1;

			if (!e->idx1 || page < idx || page >= idx + n)
				continue;
			e->idx1 = page - idx < keep ? to + page - idx + 1 : 0;
		}
	}
}

void mmf_pins_unpin(struct mmf_shadow *sh, int idx, int n, bool maybe)
{
	for (int i = 0; i < n; i++) {
		struct mmf_shadow_page *pg = &sh->pages[idx + i];

		if (!pg->pinpage || !pg->mapped)
			continue;
		if (maybe)
			pg->pin_maybe = 1;
		else
			pg->pinpage = 0;
	}
}

void mmf_pins_contest(struct mmf_shadow *sh, uint8_t uses)
{
	for (int p = 0; p < MMF_NR_PIPES; p++) {
		struct mmf_pipe *pp = &sh->pins.pipes[p];

		if (!(uses & (1u << p)))
			continue;
		sh->pins.contested_pipes |= 1u << p;
		for (int k = 0; k < MMF_PIPE_PAGES; k++)
			pp->e[k].v = mmf_vset_unknown;
	}
}

uint8_t mmf_pins_ring_slots(const struct mmf_shadow *sh)
{
	uint8_t m = 0;

	for (int i = 0; i < MMF_ARENA_PAGES; i++)
		if (sh->pages[i].pinpage)
			m |= 1u << (i / MMF_SLOT_PAGES);
	return m;
}
