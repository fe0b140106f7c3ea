/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the generator (gen.c) shares with the call builders of
 * model/calls/FAMILY.c: its model of the program so far, its random
 * helpers, and the builder each call of calls.def defines as mmf_build_FN.
 * Internal to the model layer.
 */
#ifndef MMF_MODEL_BUILDER_H
#define MMF_MODEL_BUILDER_H

#include "model/prog.h"
#include "util/rand.h"
#include "util/util.h"

#define ALL_SLOTS(n)	((1u << (n)) - 1)

struct gen_slot {
	bool mapped;
	bool written;
	uint16_t page, npages;	/* the mapping's place in the slot window */
};

struct gen_pending {
	struct mmf_stmt s;
	int due;		/* emitted once the program has this many statements */
	bool reserved;		/* room is kept for it, so it is emitted by the end */
};

struct gen {
	struct mmf_rand *r;
	struct mmf_prog *p;
	int limit;		/* statements the program may have */
	int reserved;		/* room kept for pending statements */
	struct gen_slot maps[MMF_NR_MAPS];
	uint16_t files[MMF_NR_FILES];	/* pages of fN, 0 until made */
	unsigned int children;	/* cN forked since the last join */
	unsigned int swaps_off;	/* sN turned off */
	int inflight;		/* blocks since the last join */
	int hot;		/* the slot that blocks and the calls after race on */
	int body;		/* calls left in the open block, -1 outside */
	bool in_fork;		/* a child's calls leave the parent's model alone */
	int nr_pending;
	struct gen_pending pending[8];
};

/* Favoured values of a flag set: '|'-separated names, "" for none. */
struct mmf_bias {
	const struct mmf_flag_set *set;
	int pct;			/* how often a favoured value is used */
	const char *vals[8];		/* equally likely; repeat to weigh */
};

/* The call that undoes a call, scheduled a few statements after it. */
struct mmf_undo {
	int id;
	int nr_copy;		/* leading arguments the undo takes over */
	int pct;		/* how often; 0: never (no undo), 100: always */
	const char *last;	/* the undo's last argument; NULL: generated */
};

/* A call's generation piece: mmf_build_FN, one per entry of calls.def. */
struct mmf_builder {
	/* Pick the arguments of s (s->id set) and push what must come first. */
	void (*build)(struct gen *g, struct mmf_stmt *s);
	/* Update the model once the program has s; NULL: nothing it tracks. */
	void (*apply)(struct gen *g, const struct mmf_stmt *s);
	const struct mmf_bias *biases;	/* of its flag set arguments */
	int nr_biases;
	struct mmf_undo undo;
};

#define MMF_BUILDER(fn, build_fn, ...)						\
	const struct mmf_builder mmf_build_##fn = { .build = build_fn, __VA_ARGS__ }
/* A call whose arguments are independent draws (a range first, if it has one). */
#define MMF_BUILD_DEFAULT(fn)	MMF_BUILDER(fn, mmf_gen_default)
#define MMF_BIASES(b)		.biases = b, .nr_biases = ARRAY_SIZE(b)

/* A flag set of calls.def (the sets are declared in prog.h). */
#define MMF_FLAG_SET(var, str, ...)						\
	static const struct mmf_flag var##_flags[] = { __VA_ARGS__ };		\
	const struct mmf_flag_set var = { str, var##_flags, ARRAY_SIZE(var##_flags) }

/* The value of '|'-separated names of set. */
uint64_t mmf_gen_set_value(const struct mmf_flag_set *set, const char *names);
/* A page offset below limit, mostly at the start of a folio. */
uint64_t mmf_gen_rand_offset(struct mmf_rand *r, uint64_t limit);
/* A page count of 1..max, mostly a folio size. */
uint64_t mmf_gen_rand_npages(struct mmf_rand *r, uint64_t max);
/* Append s when there is room, and update the model; false when full. */
bool mmf_gen_push(struct gen *g, const struct mmf_stmt *s);
/* A mapping slot for a call, mostly a mapped one. */
int mmf_gen_pick_slot(struct gen *g);
/* Args at..at+2 (map, page, npages), mostly inside a mapping. */
void mmf_gen_pick_range(struct gen *g, struct mmf_stmt *s, int at);
/* A target: mostly this process, else a live child. */
uint64_t mmf_gen_rand_target(struct gen *g);
/* Generate args from..nr_args-1 of s independently. */
void mmf_gen_args(struct gen *g, struct mmf_stmt *s, int from);
/* The default builder. */
void mmf_gen_default(struct gen *g, struct mmf_stmt *s);

/* File slots (calls/file.c): make file f; pick a slot and size for a new one. */
void mmf_gen_make_file(struct gen *g, int f);
void mmf_gen_pick_file(struct gen *g, struct mmf_stmt *s);
/* Apply of a call that makes file a[0] of a[1] pages. */
void mmf_gen_file_made(struct gen *g, const struct mmf_stmt *s);

/* A random set bit of a non-empty mask. */
static inline int gen_rand_bit(struct mmf_rand *r, unsigned int mask)
{
	for (uint64_t k = mmf_rand_below(r, __builtin_popcount(mask)); k; k--)
		mask &= mask - 1;
	return __builtin_ctz(mask);
}

/* A random set bit of mask, or any of the n slots when mask is empty. */
static inline int gen_rand_slot(struct mmf_rand *r, unsigned int mask, int n)
{
	return mask ? gen_rand_bit(r, mask) : (int)mmf_rand_below(r, n);
}

static inline unsigned int gen_mapped_mask(const struct gen *g)
{
	unsigned int m = 0;

	for (int i = 0; i < MMF_NR_MAPS; i++)
		m |= g->maps[i].mapped << i;
	return m;
}

static inline unsigned int gen_made_files(const struct gen *g)
{
	unsigned int m = 0;

	for (int i = 0; i < MMF_NR_FILES; i++)
		m |= (g->files[i] != 0) << i;
	return m;
}

#endif
