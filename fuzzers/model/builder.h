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

/* What backs a slot's mapping, for the calls that take only some memory. */
enum gen_mem {
	GEN_MEM_ANON,		/* private anonymous (or /dev/zero mapped private) */
	GEN_MEM_SHARED,		/* shmem mapped shared (memfd, tmpfs, shared anonymous) */
	GEN_MEM_PRIVATE,	/* shmem mapped private */
	GEN_MEM_OTHER,		/* hugetlb, secret, a block device's file, a perf ring */
};

#define GEN_MEMS_PLAIN	(1u << GEN_MEM_ANON | 1u << GEN_MEM_SHARED | 1u << GEN_MEM_PRIVATE)

struct gen_slot {
	bool mapped;
	bool written;
	uint8_t mem;		/* enum gen_mem */
	uint8_t prot;		/* as mapped; lowered by an mprotect of a part */
	uint16_t page, npages;	/* the mapping's place in the slot window */
	/* The last range registered with the uffd in the slot, and its modes (0: none). */
	uint8_t uffd_mode;
	uint16_t uffd_page, uffd_npages;
	/* Pages where a VMA of the mapping may start: calls that change flags split it. */
	uint64_t vma_starts[MMF_SLOT_PAGES / 64];
};

/* What a file slot holds: what its calls may do with it. */
enum gen_file {
	GEN_FILE_NONE,
	GEN_FILE_MEMFD,		/* shmem without a path: no O_DIRECT, sealed */
	GEN_FILE_SEALABLE,	/* a memfd that takes seals */
	GEN_FILE_TMPFILE,	/* tmpfs through a path: O_DIRECT works */
	GEN_FILE_HUGETLB,	/* no write(2), pages only where reserved */
	GEN_FILE_SECRET,	/* no read(2) or write(2) */
	GEN_FILE_DEVZERO,
	GEN_FILE_DIO,		/* on a block device (dio_file) */
};

#define GEN_FILES_SHMEM	(1u << GEN_FILE_MEMFD | 1u << GEN_FILE_SEALABLE | 1u << GEN_FILE_TMPFILE)
/* The files read(2) reads, and those write(2) writes. */
#define GEN_FILES_READ	(GEN_FILES_SHMEM | 1u << GEN_FILE_DIO | 1u << GEN_FILE_DEVZERO | \
			 1u << GEN_FILE_HUGETLB)
#define GEN_FILES_WRITE	(GEN_FILES_SHMEM | 1u << GEN_FILE_DIO | 1u << GEN_FILE_DEVZERO)

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
	uint8_t file_kinds[MMF_NR_FILES];	/* enum gen_file */
	uint8_t file_seals[MMF_NR_FILES];	/* F_SEAL_* added */
	bool uffd_created;	/* by uffd_create, with uffd_features; else made lazily */
	uint64_t uffd_features;
	uint64_t uring[3];	/* the range of the ring's fixed buffer; npages 0: none */
	uint16_t ring_pages;	/* of the perf rings special_map made, 0: none yet */
	uint8_t cgroup;		/* the memory cgroup the main line is in (cg_move) */
	unsigned int children;	/* cN forked since the last join */
	int forked;		/* the child of the last fork block */
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
/* Args at..at+2: a range inside slot m's mapping, a third of the time all of it. */
void mmf_gen_range_in(struct gen *g, struct mmf_stmt *s, int at, int m);
/* Half the time the same range (map, page, npages), else a part of it. */
void mmf_gen_sub_range(struct gen *g, uint64_t *range);
/*
 * A mapped slot of memory mems (GEN_MEM_* bits), all writable if asked,
 * not slot avoid (-1: any); -1 when there is none.
 */
int mmf_gen_pick_mem(struct gen *g, unsigned int mems, bool writable, int avoid);
/* Take [page, page + n) out of the range of len pages at start; holes are not tracked. */
void mmf_gen_cut(uint16_t *start, uint16_t *len, uint64_t page, uint64_t n);
/* Apply of a call that may split the VMAs of its range (args 0..2) at its ends. */
void mmf_gen_split(struct gen *g, const struct mmf_stmt *s);
/* Shorten range (map, page, npages) to the part in the VMA of its first page. */
void mmf_gen_one_vma(const struct gen *g, uint64_t *range);
/* Generate args from..nr_args-1 of s independently. */
void mmf_gen_args(struct gen *g, struct mmf_stmt *s, int from);
/* The default builder. */
void mmf_gen_default(struct gen *g, struct mmf_stmt *s);

/*
 * Mapping slots (calls/map.c): like mmf_gen_pick_mem, but when there is no
 * such slot, mostly map one of mems first (anonymous, private or shared),
 * not slot avoid (-1: any).
 */
int mmf_gen_mem_slot(struct gen *g, unsigned int mems, bool writable, int avoid);

/* File slots (calls/file.c): make file f; pick a slot and size for a new one. */
void mmf_gen_make_file(struct gen *g, int f);
void mmf_gen_pick_file(struct gen *g, struct mmf_stmt *s);
/* File f is now a file of kind (enum gen_file) and npages pages. */
void mmf_gen_file_set(struct gen *g, int f, uint64_t npages, int kind);
/*
 * A file slot for a call on a file of kinds (GEN_FILE_* bits), writable
 * ones (no seal that stops writes or resizes) if asked: mostly a made one,
 * else one made first.
 */
int mmf_gen_file_of(struct gen *g, unsigned int kinds, bool writable);
/* The memory a mapping of file slot f is, shared or not. */
int mmf_gen_file_mem(const struct gen *g, int f, bool shared);

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
