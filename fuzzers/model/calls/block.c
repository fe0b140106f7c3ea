// SPDX-License-Identifier: GPL-2.0
/*
 * Blocks: fork, thread, "}" and join. The generator opens and closes them
 * (gen.c); here is what they change in its model.
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
