/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the arena goes. Each slot has a place of its own, so that moves
 * between slots cross page-table boundaries: with 4 KiB pages a PMD table
 * spans 1 GiB and a PUD table 512 GiB, and one 32 MiB window would keep
 * every slot under one of each. Programs, the shadow model and the byte
 * and text forms name a page by its index, slot * MMF_SLOT_PAGES + page;
 * mmf_arena_page() is the one place that turns it into an address, for the
 * executor and its oracles, and the C reproducer carries the same layouts.
 * A range never leaves its slot (mmf_slot_clip()): past a slot's end lies
 * its guard, one slot of address space kept free so that what the kernel
 * rounds up (hugetlb lengths) spills onto nothing of ours or anyone's.
 *
 * The roles of the slots, the same in every layout (W is 512 GiB where the
 * address space has room, else 4 GiB):
 *   m0  just below a 1 GiB boundary, its guard ending at it
 *   m1  1 GiB aligned, just above that boundary
 *   m2  two slots above m1: moves within one PMD table
 *   m3  straddles a 1 GiB boundary: one PMD each side
 *   m4  just below a W boundary
 *   m5  W aligned, just above it
 *   m6  straddles a W boundary
 *   m7  1 GiB aligned, alone in its PMD table
 */
#ifndef MMF_ARENA_H
#define MMF_ARENA_H

#include <stdint.h>

#include "model/prog.h"

/*
 * A slot's base: a page-table boundary and its distance from it in half
 * slots, a PMD (2 MiB) with 4 KiB pages, so that THP works in every slot
 * and the layout scales with the page size.
 */
struct mmf_slot_place {
	uint64_t boundary;
	int half_slots;
};

struct mmf_arena_layout {
	const char *name;
	int va_bits;		/* user address bits the layout needs */
	struct mmf_slot_place slot[MMF_NR_MAPS];
};

/*
 * Tried in order, the first whose slots and guards are all free is used:
 * two for a 47-bit user address space (x86_64, arm64 with 48 bits), two
 * for 39 bits (arm64 with 3 levels). All are far from where the kernel
 * puts the binary, the heap, the stack and mappings top-down, and within
 * what ASan leaves to the program.
 */
#define MMF_NR_ARENA_LAYOUTS	4
extern const struct mmf_arena_layout mmf_arena_layouts[MMF_NR_ARENA_LAYOUTS];

/* A layout placed for a page size: where each slot starts. */
struct mmf_arena {
	const struct mmf_arena_layout *layout;
	long psz;
	uintptr_t base[MMF_NR_MAPS];
};

void mmf_arena_place(struct mmf_arena *a, const struct mmf_arena_layout *l, long psz);

/* Bytes a slot and its guard take from its base. */
static inline long mmf_arena_slot_span(const struct mmf_arena *a)
{
	return 2L * MMF_SLOT_PAGES * a->psz;
}

/* The address of arena page idx, 0 <= idx < MMF_NR_MAPS * MMF_SLOT_PAGES. */
static inline char *mmf_arena_page(const struct mmf_arena *a, int idx)
{
	return (char *)(a->base[idx / MMF_SLOT_PAGES] + (uintptr_t)(idx % MMF_SLOT_PAGES) * a->psz);
}

/* The arena page at addr when [addr, addr + len) lies in one slot, else -1. */
int mmf_arena_index(const struct mmf_arena *a, const void *addr, long len);

/* Pages of [idx, idx + n) that lie in idx's slot. */
static inline int mmf_slot_clip(int idx, int n)
{
	int left = MMF_SLOT_PAGES - idx % MMF_SLOT_PAGES;

	return n < left ? n : left;
}

#endif
