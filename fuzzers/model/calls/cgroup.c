// SPDX-License-Identifier: GPL-2.0
/* cgroup: the run's memory cgroups. */
#include "model/builder.h"

MMF_FLAG_SET(mmf_cgknob_set, "cgroup knob",
	{ "MEMORY_MAX", 0 }, { "MEMORY_SWAP_MAX", 1 }, { "MEMORY_HIGH", 2 });

/* The main line's own moves: where its pages are charged. */
static void apply_cg_move(struct gen *g, const struct mmf_stmt *s)
{
	if (s->args[0] == MMF_TARGET_SELF)
		g->cgroup = s->args[1];
}

MMF_BUILDER(cg_move, mmf_gen_default, .apply = apply_cg_move);
MMF_BUILD_DEFAULT(cg_limit);

/*
 * Proactive reclaim of the cgroup that holds the program's pages, of no
 * more than it wrote: more than a cgroup holds fails with EAGAIN.
 */
static void build_cg_reclaim(struct gen *g, struct mmf_stmt *s)
{
	uint64_t written = 0;

	mmf_gen_args(g, s, 0);
	if (mmf_rand_oneof(g->r, 8))
		return;
	s->args[0] = g->cgroup;
	for (int m = 0; m < MMF_NR_MAPS; m++)
		if (g->maps[m].mapped && g->maps[m].written)
			written += g->maps[m].npages;
	s->args[1] = written ? mmf_gen_rand_npages(g->r, MIN(written, MMF_SLOT_PAGES)) :
			       1 + mmf_rand_below(g->r, 16);
}

MMF_BUILDER(cg_reclaim, build_cg_reclaim);

const char *const mmf_cgknob_files[MMF_NR_CGKNOBS][2] = {
	{ "memory.max", "memory.limit_in_bytes" },
	{ "memory.swap.max", "memory.memsw.limit_in_bytes" },
	{ "memory.high", "memory.soft_limit_in_bytes" },
};
