// SPDX-License-Identifier: GPL-2.0
/* swap: the run's own devices; swapoff is always undone. */
#include "model/builder.h"

MMF_FLAG_SET(mmf_swapon_set, "swapon",
	{ "SWAP_FLAG_DISCARD", 0x10000 }, { "SWAP_FLAG_DISCARD_ONCE", 0x20000 },
	{ "SWAP_FLAG_DISCARD_PAGES", 0x40000 });

static void build_swapoff(struct gen *g, struct mmf_stmt *s)
{
	s->args[0] = gen_rand_slot(g->r, ~g->swaps_off & ALL_SLOTS(MMF_NR_SWAPS), MMF_NR_SWAPS);
}

static void apply_swapoff(struct gen *g, const struct mmf_stmt *s)
{
	g->swaps_off |= 1u << s->args[0];
}

/* Never leave swap off. */
MMF_BUILDER(swapoff, build_swapoff, .apply = apply_swapoff,
	    .undo = { MMF_SWAPON, 1, 100, NULL });

static void build_swapon(struct gen *g, struct mmf_stmt *s)
{
	mmf_gen_args(g, s, 1);
	s->args[0] = gen_rand_slot(g->r, g->swaps_off, MMF_NR_SWAPS);
}

static void apply_swapon(struct gen *g, const struct mmf_stmt *s)
{
	g->swaps_off &= ~(1u << s->args[0]);
}

static const struct mmf_bias swapon_biases[] = {
	{ &mmf_swapon_set, 80, { "" } },
};

MMF_BUILDER(swapon, build_swapon, .apply = apply_swapon, MMF_BIASES(swapon_biases));
