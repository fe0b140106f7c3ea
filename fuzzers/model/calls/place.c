// SPDX-License-Identifier: GPL-2.0
/*
 * place: NUMA policy, migration, compaction. Node 0 mostly, the one every
 * machine has (node 1 is EINVAL on one node).
 */
#include "model/builder.h"

/* mbind(2): the policy modes, and what to do with pages already there. */
MMF_FLAG_SET(mmf_mpol_set, "mpol",
	{ "MPOL_DEFAULT", 0 }, { "MPOL_PREFERRED", 1 }, { "MPOL_BIND", 2 },
	{ "MPOL_INTERLEAVE", 3 }, { "MPOL_LOCAL", 4 }, { "MPOL_PREFERRED_MANY", 5 },
	{ "MPOL_WEIGHTED_INTERLEAVE", 6 });

MMF_FLAG_SET(mmf_mbind_set, "mbind",
	{ "MPOL_MF_STRICT", 0x1 }, { "MPOL_MF_MOVE", 0x2 }, { "MPOL_MF_MOVE_ALL", 0x4 });

static int64_t rand_node(struct gen *g)
{
	return mmf_rand_oneof(g->r, 8) ? 1 : 0;
}

/* DEFAULT and LOCAL take no node: mostly node 0 or an empty mask. */
static void build_mbind(struct gen *g, struct mmf_stmt *s)
{
	const struct mmf_flag_set *mpol = &mmf_mpol_set;

	mmf_gen_default(g, s);
	if (s->args[3] == mmf_gen_set_value(mpol, "MPOL_DEFAULT") ||
	    s->args[3] == mmf_gen_set_value(mpol, "MPOL_LOCAL"))
		s->args[4] = mmf_rand_oneof(g->r, 8) ? 0 : (uint64_t)-1;
	else
		s->args[4] = rand_node(g);
}

/* Policies that move pages; build_mbind() picks the node. */
static const struct mmf_bias mbind_biases[] = {
	{ &mmf_mpol_set, 80, { "MPOL_BIND", "MPOL_BIND", "MPOL_PREFERRED", "MPOL_INTERLEAVE",
		"MPOL_DEFAULT", "MPOL_LOCAL", "MPOL_PREFERRED_MANY" } },
	{ &mmf_mbind_set, 80, { "MPOL_MF_MOVE", "MPOL_MF_MOVE", "MPOL_MF_MOVE|MPOL_MF_STRICT",
		"MPOL_MF_MOVE_ALL", "" } },
};

/* A policy of its own splits the VMAs at the range's ends. */
MMF_BUILDER(mbind, build_mbind, .apply = mmf_gen_split, MMF_BIASES(mbind_biases));

static void build_move_pages(struct gen *g, struct mmf_stmt *s)
{
	mmf_gen_default(g, s);
	s->args[3] = mmf_gen_rand_target(g);
	s->args[4] = mmf_rand_oneof(g->r, 4) ? (uint64_t)-1 : (uint64_t)rand_node(g);
}

MMF_BUILDER(move_pages, build_move_pages);

static void build_migrate_pages(struct gen *g, struct mmf_stmt *s)
{
	s->args[0] = mmf_gen_rand_target(g);
	s->args[1] = rand_node(g);
	s->args[2] = rand_node(g);
}

MMF_BUILDER(migrate_pages, build_migrate_pages);
MMF_BUILD_DEFAULT(compact);
