/* SPDX-License-Identifier: GPL-2.0 */
/* A growing set of nonzero 64-bit values (PCs seen so far): open addressing. */
#ifndef MMF_U64SET_H
#define MMF_U64SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mmf_u64set {
	uint64_t *slot;		/* 0: empty */
	size_t cap, nr;
};

/* Add v (0 is never in the set); true if it was not there yet. */
bool mmf_u64set_add(struct mmf_u64set *s, uint64_t v);
void mmf_u64set_free(struct mmf_u64set *s);

#endif
