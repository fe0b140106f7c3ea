// SPDX-License-Identifier: GPL-2.0
/*
 * Blocks: fork, thread, "}", join and race. The generator opens and closes
 * them (gen.c); here is what they change in its model.
 */
#include "model/builder.h"

static void build_fork(struct gen *g, struct mmf_stmt *s)
{
	s->args[0] = gen_rand_slot(g->r, ~g->children & ALL_SLOTS(MMF_NR_CHILDREN),
				   MMF_NR_CHILDREN);
}

static void apply_fork(struct gen *g, const struct mmf_stmt *s)
{
	g->children |= 1u << s->args[0];
	g->forked = s->args[0];
	g->inflight++;
}

MMF_BUILDER(fork, build_fork, .apply = apply_fork);

static void apply_thread(struct gen *g, const struct mmf_stmt *s)
{
	g->inflight++;
}

MMF_BUILDER(thread, mmf_gen_default, .apply = apply_thread);
MMF_BUILD_DEFAULT(end);

static void apply_join(struct gen *g, const struct mmf_stmt *s)
{
	g->inflight = 0;
	g->children = 0;
}

MMF_BUILDER(join, mmf_gen_default, .apply = apply_join);

MMF_FLAG_SET(mmf_party_set, "party",
	     { "main", 0 }, { "block1", 1 }, { "block2", 2 }, { "block3", 3 }, { "block4", 4 });

/* gen.c puts a race before a block it opens, with arguments of its own. */
MMF_BUILD_DEFAULT(race);
