// SPDX-License-Identifier: GPL-2.0
/* advise: madvise and process_madvise. */
#include "model/builder.h"
#include "model/uapi.h"

MMF_FLAG_SET(mmf_madv_set, "madvise",
	{ "MADV_NORMAL", 0 }, { "MADV_RANDOM", 1 }, { "MADV_SEQUENTIAL", 2 },
	{ "MADV_WILLNEED", 3 }, { "MADV_DONTNEED", MMF_MADV_DONTNEED },
	{ "MADV_FREE", MMF_MADV_FREE },
	{ "MADV_REMOVE", 9 }, { "MADV_DONTFORK", 10 }, { "MADV_DOFORK", 11 },
	{ "MADV_MERGEABLE", MMF_MADV_MERGEABLE }, { "MADV_UNMERGEABLE", 13 },
	{ "MADV_HUGEPAGE", 14 }, { "MADV_NOHUGEPAGE", 15 },
	{ "MADV_DONTDUMP", 16 }, { "MADV_DODUMP", 17 },
	{ "MADV_WIPEONFORK", 18 }, { "MADV_KEEPONFORK", 19 },
	{ "MADV_COLD", 20 }, { "MADV_PAGEOUT", 21 },
	{ "MADV_POPULATE_READ", 22 }, { "MADV_POPULATE_WRITE", 23 },
	{ "MADV_DONTNEED_LOCKED", 24 }, { "MADV_COLLAPSE", 25 },
	{ "MADV_GUARD_INSTALL", 102 }, { "MADV_GUARD_REMOVE", 103 });

/* process_madvise accepts only the non-destructive advice. */
MMF_FLAG_SET(mmf_pmadv_set, "process_madvise",
	{ "MADV_COLD", 20 }, { "MADV_PAGEOUT", 21 }, { "MADV_WILLNEED", 3 },
	{ "MADV_COLLAPSE", 25 });

/* The advice that moves anonymous pages to swap and back, or frees them. */
static const struct mmf_bias madvise_biases[] = {
	{ &mmf_madv_set, 80, { "MADV_FREE", "MADV_DONTNEED", "MADV_PAGEOUT",
		"MADV_PAGEOUT", "MADV_COLD", "MADV_WILLNEED",
		"MADV_POPULATE_READ", "MADV_POPULATE_WRITE" } },
};

/* The advice that changes VMA flags, and so splits the VMAs at the range's ends. */
static const char *const flag_advice[] = {
	"MADV_NORMAL", "MADV_RANDOM", "MADV_SEQUENTIAL", "MADV_DONTFORK", "MADV_DOFORK",
	"MADV_MERGEABLE", "MADV_UNMERGEABLE", "MADV_HUGEPAGE", "MADV_NOHUGEPAGE",
	"MADV_DONTDUMP", "MADV_DODUMP", "MADV_WIPEONFORK", "MADV_KEEPONFORK",
};

static bool sets_flags(uint64_t advice)
{
	for (size_t i = 0; i < ARRAY_SIZE(flag_advice); i++)
		if (advice == mmf_gen_set_value(&mmf_madv_set, flag_advice[i]))
			return true;
	return false;
}

static void apply_madvise(struct gen *g, const struct mmf_stmt *s)
{
	if (sets_flags(s->args[3]))
		mmf_gen_split(g, s);
}

MMF_BUILDER(madvise, mmf_gen_default, .apply = apply_madvise, MMF_BIASES(madvise_biases));

static void build_pmadv(struct gen *g, struct mmf_stmt *s)
{
	mmf_gen_default(g, s);
	s->args[3] = mmf_gen_rand_target(g);
}

static const struct mmf_bias pmadv_biases[] = {
	{ &mmf_pmadv_set, 60, { "MADV_PAGEOUT", "MADV_COLD" } },
};

MMF_BUILDER(process_madvise, build_pmadv, MMF_BIASES(pmadv_biases));

/* Two ranges, each mostly inside a mapping, and any advice (biased below). */
static void build_pmadv_vec(struct gen *g, struct mmf_stmt *s)
{
	mmf_gen_pick_range(g, s, 0);
	mmf_gen_pick_range(g, s, 3);
	mmf_gen_args(g, s, 6);
}

static void apply_pmadv_vec(struct gen *g, const struct mmf_stmt *s)
{
	struct mmf_stmt second = { .args = { s->args[3], s->args[4], s->args[5] } };

	if (!sets_flags(s->args[6]))
		return;
	mmf_gen_split(g, s);
	mmf_gen_split(g, &second);
}

/*
 * Kernels before 6.13 take only the non-destructive advice in
 * process_madvise, even for the caller itself; later ones take the rest.
 */
static const struct mmf_bias pmadv_vec_biases[] = {
	{ &mmf_madv_set, 80, { "MADV_PAGEOUT", "MADV_PAGEOUT", "MADV_COLD", "MADV_WILLNEED",
		"MADV_COLLAPSE", "MADV_FREE", "MADV_DONTNEED" } },
};

MMF_BUILDER(process_madvise_vec, build_pmadv_vec, .apply = apply_pmadv_vec,
	    MMF_BIASES(pmadv_vec_biases));
