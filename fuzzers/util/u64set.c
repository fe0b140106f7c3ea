// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "util/u64set.h"
#include "util/util.h"

bool mmf_u64set_add(struct mmf_u64set *s, uint64_t v)
{
	size_t i;

	if (!v)
		return false;
	/* At most half full: a probe ends soon. */
	if (2 * (s->nr + 1) > s->cap) {
		struct mmf_u64set big = { .cap = s->cap ? 2 * s->cap : 1 << 16 };

		big.slot = mmf_xcalloc(big.cap, sizeof(*big.slot));
		for (size_t k = 0; k < s->cap; k++)
			if (s->slot[k])
				mmf_u64set_add(&big, s->slot[k]);
		free(s->slot);
		*s = big;
	}
	for (i = (v * 0x9e3779b97f4a7c15ull) >> 40 & (s->cap - 1); s->slot[i];
	     i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == v)
			return false;
	s->slot[i] = v;
	s->nr++;
	return true;
}

void mmf_u64set_free(struct mmf_u64set *s)
{
	free(s->slot);
	memset(s, 0, sizeof(*s));
}
