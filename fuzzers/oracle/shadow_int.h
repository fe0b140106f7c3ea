/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside the shadow model: the core its rules (oracle/rules/) and its race
 * analysis build on, pages and objects (shadow.c) and pins (pins.c). The
 * core never calls a rule.
 */
#ifndef MMF_SHADOW_INT_H
#define MMF_SHADOW_INT_H

#include "oracle/shadow.h"

/* The contents "zero" and "unknown". */
extern const struct mmf_vset mmf_vset_zero, mmf_vset_unknown;

static inline struct mmf_vset mmf_vset_one(uint64_t v)
{
	struct mmf_vset s = { 1, { v } };

	return s;
}

/* Union of a and b (unknown when too many). */
void mmf_vset_union(struct mmf_vset *a, const struct mmf_vset *b);

/* A new object of npages zero (or unknown) pages; -1 when none is free. */
int mmf_shadow_obj_new(struct mmf_shadow *sh, int npages, bool unknown);
/* Page pg of object o, NULL when o is none or pg is past its end. */
struct mmf_vset *mmf_shadow_obj_page(struct mmf_shadow *sh, int o, int pg);
/* A write or hole punch through a page of unknown mapping may have hit
 * any object's page: none can be trusted.
 */
void mmf_shadow_lose_objs(struct mmf_shadow *sh);
/* File fN or its object o is raced on. */
bool mmf_shadow_file_contested(const struct mmf_shadow *sh, int f, int o);

/* The page's mapping is unknown from now on (and so is VmLck). */
void mmf_shadow_lose_page(struct mmf_shadow *sh, struct mmf_shadow_page *pg);
/* Record that statement si touched the page. */
void mmf_shadow_touch(struct mmf_shadow_page *pg, int si);
/* Statement si touched pages [idx, idx + n): those of raced slots are lost. */
void mmf_shadow_touch_range(struct mmf_shadow *sh, int idx, int n, int si);
/* The page is no longer mapped. */
void mmf_shadow_unmap_page(struct mmf_shadow_page *pg);
/* Arena page idx now holds w, as after a write: the object's page for a
 * shared view, the page's own otherwise.
 */
void mmf_shadow_store(struct mmf_shadow *sh, int idx, const struct mmf_vset *w);
/* The content of arena page idx as the model predicts it, or unknown. */
struct mmf_vset mmf_shadow_load(const struct mmf_shadow *sh, int idx);
/* The snapshot a populate that may break COW of a private file view takes. */
void mmf_shadow_maybe_cow(struct mmf_shadow *sh, struct mmf_shadow_page *pg);
/* DONTNEED-like zap: anonymous content is gone, files refault; maybe: the
 * call may have failed.
 */
void mmf_shadow_zap(struct mmf_shadow_page *pg, bool maybe);
/* No page is pinned by the io_uring buffer any more. */
void mmf_shadow_unpin_all(struct mmf_shadow *sh);
/* Mapping slots that pages [idx, idx + n) cover. */
uint8_t mmf_shadow_range_slots(int idx, int n);

/*
 * Pins (pins.c). What every call does afterwards to the pipes' pages and
 * the pinned buffer: entries follow their page's content, and stop where
 * the page left its mapping.
 */
void mmf_pins_follow(struct mmf_shadow *sh, const struct mmf_stmt *s, long res);
/*
 * Pages [idx, idx + n) left their place: the first keep of them are now
 * at [to, to + keep), the others gone (replaced, unmapped or zapped). The
 * pipe entries that follow them follow along.
 */
void mmf_pins_move(struct mmf_shadow *sh, int idx, int n, int to, int keep);
/* The io_uring pins of the mapped pages [idx, idx + n) are gone; maybe: a
 * failed call may have left them.
 */
void mmf_pins_unpin(struct mmf_shadow *sh, int idx, int n, bool maybe);
/* The parties race on these pipes (bits) and the ring (MMF_PINS_RING). */
#define MMF_PINS_RING	0x80
void mmf_pins_contest(struct mmf_shadow *sh, uint8_t uses);
/* Slots of the pages pinned by the io_uring buffer. */
uint8_t mmf_pins_ring_slots(const struct mmf_shadow *sh);

#endif
