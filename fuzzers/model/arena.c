// SPDX-License-Identifier: GPL-2.0
#include "model/arena.h"

#define GIB	(1ull << 30)
#define PUD_SPAN (1ull << 39)	/* one PUD table: 512 GiB */

/* The roles of model/arena.h from anchor a, with the wide boundary w. */
#define LAYOUT(a, w) {								\
	{ (a) + GIB, -4 }, { (a) + GIB, 0 }, { (a) + GIB, 4 },			\
	{ (a) + 2 * GIB, -1 }, { (a) + (w), -4 }, { (a) + (w), 0 },		\
	{ (a) + 2 * (w), -1 }, { (a) + 3 * GIB, 0 },				\
}

const struct mmf_arena_layout mmf_arena_layouts[MMF_NR_ARENA_LAYOUTS] = {
	{ "48 TiB", 47, LAYOUT(0x300000000000ull, PUD_SPAN) },
	{ "24 TiB", 47, LAYOUT(0x180000000000ull, PUD_SPAN) },
	{ "64 GiB", 39, LAYOUT(0x1000000000ull, 4 * GIB) },
	{ "16 GiB", 39, LAYOUT(0x400000000ull, 4 * GIB) },
};

void mmf_arena_place(struct mmf_arena *a, const struct mmf_arena_layout *l, long psz)
{
	a->layout = l;
	a->psz = psz;
	for (int m = 0; m < MMF_NR_MAPS; m++)
		a->base[m] = l->slot[m].boundary +
			(uintptr_t)((long)l->slot[m].half_slots * (MMF_SLOT_PAGES / 2) * psz);
}

int mmf_arena_index(const struct mmf_arena *a, const void *addr, long len)
{
	uintptr_t p = (uintptr_t)addr, slot = (uintptr_t)MMF_SLOT_PAGES * a->psz;

	for (int m = 0; m < MMF_NR_MAPS; m++) {
		uintptr_t off = p - a->base[m];

		if (p >= a->base[m] && off < slot && len >= 0 && (uintptr_t)len <= slot - off)
			return m * MMF_SLOT_PAGES + off / a->psz;
	}
	return -1;
}
