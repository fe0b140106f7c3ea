// SPDX-License-Identifier: GPL-2.0
/*
 * Program generation, in the manner of syzkaller's and trinity's: a small
 * model of what the program did so far (which slots are mapped and where,
 * which were written, which files exist, which swap devices are off, which
 * blocks are open) steers most calls onto mapped, in-range pages, so that
 * they move pages between states (present, swapped, locked, shared, huge)
 * instead of failing with EFAULT or ENOMEM. Calls that a later call undoes
 * (mlock, swapoff, ...) get that call scheduled a few statements later.
 */
#include <assert.h>
#include <string.h>

#include "model/prog.h"
#include "util/rand.h"
#include "util/util.h"

#define ALL_SLOTS(n)	((1u << (n)) - 1)

/* Offsets in a mapping: 0 and folio multiples (64 KiB, 2 MiB) start folios. */
static const uint16_t offset_align[] = { 0, 0, 0, 0, 16, 16, 16, 512, 512, 1 };

/* Favoured values of flag sets: '|'-separated names, "" for none. */
static const struct bias {
	const char *call;		/* only for this call; NULL: any */
	const char *set;
	int pct;			/* how often a favoured value is used */
	const char *vals[8];		/* equally likely; repeat to weigh */
} biases[] = {
	/* Take access away, for a later mprotect to give it back. */
	{ "mprotect", "prot", 80, { "PROT_READ", "PROT_READ", "PROT_NONE",
		"PROT_READ|PROT_EXEC" } },
	{ NULL, "prot", 85, { "PROT_READ|PROT_WRITE", "PROT_READ|PROT_WRITE",
		"PROT_READ|PROT_WRITE", "PROT_READ|PROT_WRITE", "PROT_READ" } },
	{ NULL, "share", 80, { "MAP_PRIVATE", "MAP_PRIVATE", "MAP_PRIVATE", "MAP_SHARED" } },
	{ NULL, "mmap", 90, { "", "", "", "MAP_POPULATE", "MAP_NORESERVE" } },
	{ NULL, "mremap", 85, { "MREMAP_MAYMOVE", "MREMAP_MAYMOVE|MREMAP_FIXED",
		"MREMAP_MAYMOVE|MREMAP_FIXED",
		"MREMAP_MAYMOVE|MREMAP_FIXED|MREMAP_DONTUNMAP" } },
	/* The advice that moves anonymous pages to swap and back, or frees them. */
	{ NULL, "madvise", 80, { "MADV_FREE", "MADV_DONTNEED", "MADV_PAGEOUT",
		"MADV_PAGEOUT", "MADV_COLD", "MADV_WILLNEED",
		"MADV_POPULATE_READ", "MADV_POPULATE_WRITE" } },
	{ NULL, "process_madvise", 60, { "MADV_PAGEOUT", "MADV_COLD" } },
	{ NULL, "mlockall", 80, { "MCL_CURRENT|MCL_FUTURE", "MCL_CURRENT",
		"MCL_CURRENT|MCL_ONFAULT", "MCL_CURRENT|MCL_FUTURE|MCL_ONFAULT" } },
	{ NULL, "msync", 80, { "MS_SYNC", "MS_ASYNC", "MS_SYNC|MS_INVALIDATE" } },
	{ NULL, "swapon", 80, { "" } },
	/* issue 7 track B: userfaultfd. WP with MISSING: the markers swapoff meets. */
	{ NULL, "uffd_register", 85, { "UFFDIO_REGISTER_MODE_MISSING", "UFFDIO_REGISTER_MODE_WP",
		"UFFDIO_REGISTER_MODE_MISSING|UFFDIO_REGISTER_MODE_WP",
		"UFFDIO_REGISTER_MODE_MINOR" } },
	{ NULL, "uffd_writeprotect", 85, { "UFFDIO_WRITEPROTECT_MODE_WP",
		"UFFDIO_WRITEPROTECT_MODE_WP", "" } },
	{ NULL, "uffd_features", 70, { "UFFD_FEATURE_EVENT_FORK|UFFD_FEATURE_EVENT_REMAP|"
		"UFFD_FEATURE_EVENT_REMOVE|UFFD_FEATURE_EVENT_UNMAP|UFFD_FEATURE_MISSING_SHMEM|"
		"UFFD_FEATURE_WP_HUGETLBFS_SHMEM|UFFD_FEATURE_WP_UNPOPULATED",
		"UFFD_FEATURE_EVENT_FORK|UFFD_FEATURE_WP_UNPOPULATED",
		"UFFD_FEATURE_MISSING_SHMEM|UFFD_FEATURE_MINOR_SHMEM|UFFD_FEATURE_POISON|"
		"UFFD_FEATURE_MOVE", "" } },
	{ NULL, "uffd_copy", 80, { "", "", "UFFDIO_COPY_MODE_WP" } },
	{ NULL, "uffd_dontwake", 90, { "" } },
	{ NULL, "uffd_continue", 90, { "" } },
	{ NULL, "uffd_move", 80, { "", "UFFDIO_MOVE_MODE_ALLOW_SRC_HOLES" } },
	/* track D: placement. Policies that move pages, on node 0 (the one
	 * every machine has); build_mbind() picks the node.
	 */
	{ NULL, "mpol", 80, { "MPOL_BIND", "MPOL_BIND", "MPOL_PREFERRED", "MPOL_INTERLEAVE",
		"MPOL_DEFAULT", "MPOL_LOCAL", "MPOL_PREFERRED_MANY" } },
	{ NULL, "mbind", 80, { "MPOL_MF_MOVE", "MPOL_MF_MOVE", "MPOL_MF_MOVE|MPOL_MF_STRICT",
		"MPOL_MF_MOVE_ALL", "" } },
};

/* Advice that drops paged-out pages, and with them their swap entries. */
static const char *const swap_frees[] = { "MADV_FREE", "MADV_DONTNEED" };

/* Calls that a later call undoes, so that programs run the undo paths too. */
static const struct {
	int id, undo;
	int nr_copy;		/* leading arguments the undo takes over */
	int pct;
	const char *last;	/* the undo's last argument; NULL: generated */
} undos[] = {
	{ MMF_MLOCK, MMF_MUNLOCK, 3, 75, NULL },
	{ MMF_MLOCK2, MMF_MUNLOCK, 3, 75, NULL },
	{ MMF_MLOCKALL, MMF_MUNLOCKALL, 0, 90, NULL },
	{ MMF_MPROTECT, MMF_MPROTECT, 3, 75, "PROT_READ|PROT_WRITE" },
	{ MMF_SWAPOFF, MMF_SWAPON, 1, 100, NULL },	/* never leave swap off */
	{ MMF_UFFD_REGISTER, MMF_UFFD_UNREGISTER, 3, 50, NULL },
	{ MMF_UFFD_WRITEPROTECT, MMF_UFFD_WRITEPROTECT, 3, 50, "" },
};

struct slot {
	bool mapped;
	bool written;
	uint16_t page, npages;	/* the mapping's place in the slot window */
};

struct pending {
	struct mmf_stmt s;
	int due;		/* emitted once the program has this many statements */
	bool reserved;		/* room is kept for it, so it is emitted by the end */
};

struct gen {
	struct mmf_rand *r;
	struct mmf_prog *p;
	int limit;		/* statements the program may have */
	int reserved;		/* room kept for pending statements */
	struct slot maps[MMF_NR_MAPS];
	uint16_t files[MMF_NR_FILES];	/* pages of fN, 0 until made */
	unsigned int children;	/* cN forked since the last join */
	unsigned int swaps_off;	/* sN turned off */
	int inflight;		/* blocks since the last join */
	int hot;		/* the slot that blocks and the calls after race on */
	int body;		/* calls left in the open block, -1 outside */
	bool in_fork;		/* a child's calls leave the parent's model alone */
	int nr_pending;
	struct pending pending[8];
};

static uint64_t set_value(const struct mmf_flag_set *set, const char *names)
{
	uint64_t v = 0;

	for (const char *n = names; *n; n += *n == '|') {
		size_t len = strcspn(n, "|");
		int i = 0;

		while (i < set->nr && (strlen(set->flags[i].name) != len ||
				       memcmp(set->flags[i].name, n, len)))
			i++;
		assert(i < set->nr);
		v |= set->flags[i].val;
		n += len;
	}
	return v;
}

/* Set the last argument of s, a flag set's, by names. */
static void set_last_arg(struct mmf_stmt *s, const char *names)
{
	const struct mmf_call_desc *d = &mmf_calls[s->id];

	s->args[d->nr_args - 1] = set_value(d->args[d->nr_args - 1].set, names);
}

static const struct bias *find_bias(const struct mmf_call_desc *d,
				    const struct mmf_flag_set *set)
{
	for (size_t i = 0; i < ARRAY_SIZE(biases); i++)
		if ((!biases[i].call || !strcmp(biases[i].call, d->name)) &&
		    !strcmp(biases[i].set, set->name))
			return &biases[i];
	return NULL;
}

static uint64_t rand_set_value(struct mmf_rand *r, const struct mmf_call_desc *d,
			       const struct mmf_arg_desc *a)
{
	const struct bias *b = find_bias(d, a->set);
	const struct mmf_flag_set *set = a->set;
	uint64_t v = 0;
	int n = 0;

	if (b && (int)mmf_rand_below(r, 100) < b->pct) {
		while (n < (int)ARRAY_SIZE(b->vals) && b->vals[n])
			n++;
		return set_value(set, b->vals[mmf_rand_below(r, n)]);
	}
	if (a->type == MMF_ARG_ENUM)
		return set->flags[mmf_rand_below(r, set->nr)].val;
	for (int i = 0; i < set->nr; i++)
		if (mmf_rand_below(r, 2))
			v |= set->flags[i].val;
	return v;
}

static uint64_t rand_offset(struct mmf_rand *r, uint64_t limit)
{
	uint64_t a = offset_align[mmf_rand_below(r, ARRAY_SIZE(offset_align))];

	return a ? mmf_rand_below(r, (limit + a - 1) / a) * a : 0;
}

/*
 * Folio sizes from one page to a whole slot, sometimes a page off so that
 * the range ends inside a folio and splits it.
 */
static uint64_t rand_npages(struct mmf_rand *r, uint64_t max)
{
	uint64_t n;

	if (mmf_rand_oneof(r, 8))
		return 1 + mmf_rand_below(r, max);
	n = 1ull << mmf_rand_below(r, __builtin_ctz(MMF_SLOT_PAGES) + 1);
	while (n > max)
		n >>= 1;
	if (mmf_rand_oneof(r, 8))
		n = mmf_rand_below(r, 2) ? n + 1 : n - 1;
	return MAX(1, MIN(n, max));
}

uint64_t mmf_arg_generate(struct mmf_rand *r, const struct mmf_call_desc *d, int i)
{
	const struct mmf_arg_desc *a = &d->args[i];

	switch (a->type) {
	case MMF_ARG_MAP:
		return mmf_rand_below(r, MMF_NR_MAPS);
	case MMF_ARG_FILE:
		return mmf_rand_below(r, MMF_NR_FILES);
	case MMF_ARG_CHILD:
		return mmf_rand_below(r, MMF_NR_CHILDREN);
	case MMF_ARG_SWAP:
		return mmf_rand_below(r, MMF_NR_SWAPS);
	case MMF_ARG_BACKING:
		return mmf_rand_oneof(r, 4) ? 1 + mmf_rand_below(r, MMF_NR_FILES) :
			MMF_BACKING_ANON;
	case MMF_ARG_TARGET:
		return mmf_rand_oneof(r, 4) ? 1 + mmf_rand_below(r, MMF_NR_CHILDREN) :
			MMF_TARGET_SELF;
	case MMF_ARG_PAGE:
		return rand_offset(r, MMF_SLOT_PAGES);
	case MMF_ARG_NPAGES:
		return rand_npages(r, MMF_SLOT_PAGES);
	case MMF_ARG_FLAGS:
	case MMF_ARG_ENUM:
		return rand_set_value(r, d, a);
	case MMF_ARG_TAG:
		/* Tag 0 writes zero pages: they take their own path at swap-out. */
		return mmf_rand_oneof(r, 16) ? 0 : 1 + mmf_rand_below(r, MMF_MAX_TAG);
	case MMF_ARG_INT:
		/* The minimum is the default (swapon: kernel-chosen priority). */
		return mmf_rand_below(r, 2) ? a->min :
			a->min + (int64_t)mmf_rand_below(r, a->max - a->min + 1);
	}
	return 0;
}

/* A random set bit of a non-empty mask. */
static int rand_bit(struct mmf_rand *r, unsigned int mask)
{
	for (uint64_t k = mmf_rand_below(r, __builtin_popcount(mask)); k; k--)
		mask &= mask - 1;
	return __builtin_ctz(mask);
}

/* A random set bit of mask, or any of the n slots when mask is empty. */
static int rand_slot(struct mmf_rand *r, unsigned int mask, int n)
{
	return mask ? rand_bit(r, mask) : (int)mmf_rand_below(r, n);
}

static unsigned int mapped_mask(const struct gen *g)
{
	unsigned int m = 0;

	for (int i = 0; i < MMF_NR_MAPS; i++)
		m |= g->maps[i].mapped << i;
	return m;
}

static unsigned int made_files(const struct gen *g)
{
	unsigned int m = 0;

	for (int i = 0; i < MMF_NR_FILES; i++)
		m |= (g->files[i] != 0) << i;
	return m;
}

static int room(const struct gen *g)
{
	return g->limit - g->p->nr - (g->body >= 0) - g->reserved;
}

static bool can_schedule(const struct gen *g)
{
	return g->nr_pending < (int)ARRAY_SIZE(g->pending) && room(g) >= 2;
}

static void map_set(struct gen *g, int m, uint64_t page, uint64_t npages, bool written)
{
	g->maps[m] = (struct slot){ true, written, page, npages };
}

/* Take [page, page + n) out of slot m's mapping; holes are not tracked. */
static void unmap(struct gen *g, int m, uint64_t page, uint64_t n)
{
	struct slot *sl = &g->maps[m];
	uint64_t end = page + n, sl_end = sl->page + sl->npages;

	if (!sl->mapped || end <= sl->page || page >= sl_end)
		return;
	if (page <= sl->page && end >= sl_end) {
		sl->mapped = false;
	} else if (page <= sl->page) {
		sl->npages = sl_end - end;
		sl->page = end;
	} else if (end >= sl_end) {
		sl->npages = page - sl->page;
	}
}

/* Update the model for a statement the program now has. */
static void apply(struct gen *g, const struct mmf_stmt *s)
{
	const struct mmf_flag_set *mr = &mmf_mremap_set;
	const uint64_t *a = s->args;

	switch (s->id) {
	case MMF_MMAP:
		map_set(g, a[0], a[1], a[2], false);
		break;
	case MMF_MUNMAP:
		unmap(g, a[0], a[1], a[2]);
		break;
	case MMF_MREMAP: {
		/* Without MREMAP_FIXED the generator resizes in place. */
		bool written = g->maps[a[0]].written;

		if (!(a[6] & set_value(mr, "MREMAP_DONTUNMAP")))
			unmap(g, a[0], a[1], a[2]);
		map_set(g, a[3], a[4], a[5], written);
		break;
	}
	case MMF_WRITE:
		g->maps[a[0]].written = true;
		break;
	case MMF_MEMFD:
	case MMF_TMPFILE:
	case MMF_DIO_FILE:
	case MMF_MEMFD_CREATE:
	case MMF_MEMFD_SECRET:
		g->files[a[0]] = a[1];
		break;
	case MMF_DEVZERO:
		g->files[a[0]] = MMF_SLOT_PAGES;
		break;
	case MMF_SWAPOFF:
		g->swaps_off |= 1u << a[0];
		break;
	case MMF_SWAPON:
		g->swaps_off &= ~(1u << a[0]);
		break;
	case MMF_FORK:
		g->children |= 1u << a[0];
		g->inflight++;
		break;
	case MMF_THREAD:
		g->inflight++;
		break;
	case MMF_JOIN:
		g->inflight = 0;
		g->children = 0;
		break;
	}
}

/* Append s when there is room, and update the model; false when full. */
static bool push(struct gen *g, const struct mmf_stmt *s)
{
	if (room(g) < 1)
		return false;
	memcpy(mmf_prog_append(g->p, s->id)->args, s->args, sizeof(s->args));
	if (g->body > 0)
		g->body--;
	if (!g->in_fork)
		apply(g, s);
	return true;
}

/* Emit s a few statements from now; reserved ones are emitted by the end. */
static void schedule(struct gen *g, const struct mmf_stmt *s, bool reserve)
{
	struct pending *pd;

	if (g->nr_pending == (int)ARRAY_SIZE(g->pending) || (reserve && room(g) < 1))
		return;
	pd = &g->pending[g->nr_pending++];
	pd->s = *s;
	pd->due = g->p->nr + 1 + mmf_rand_below(g->r, 8);
	pd->reserved = reserve;
	g->reserved += reserve;
}

/* Emit the first due pending statement; false when none was emitted. */
static bool emit_due(struct gen *g, bool all)
{
	for (int i = 0; i < g->nr_pending; i++) {
		struct pending pd = g->pending[i];

		if (all ? !pd.reserved : pd.due > g->p->nr)
			continue;
		g->nr_pending--;
		memmove(&g->pending[i], &g->pending[i + 1], (g->nr_pending - i) * sizeof(pd));
		g->reserved -= pd.reserved;
		/* A join scheduled after a block is moot once another joined it. */
		if (pd.s.id == MMF_JOIN && !g->inflight)
			return false;
		return push(g, &pd.s);
	}
	return false;
}

static int pick_slot(struct gen *g)
{
	unsigned int mapped = mapped_mask(g);

	/* Blocks and the calls after them race on the same pages. */
	if (mapped & (1u << g->hot) && mmf_rand_below(g->r, g->body >= 0 ? 4 : 2))
		return g->hot;
	if (mapped && !mmf_rand_oneof(g->r, 16))
		return rand_bit(g->r, mapped);
	return mmf_rand_below(g->r, MMF_NR_MAPS);
}

/*
 * Args at..at+2 (map, page, npages): mostly inside a mapping of the slot,
 * a third of the time all of it.
 */
static void pick_range(struct gen *g, struct mmf_stmt *s, int at)
{
	int m = pick_slot(g);
	const struct slot *sl = &g->maps[m];
	uint64_t base = 0, len = MMF_SLOT_PAGES, off = 0, n = len;

	if (sl->mapped && !mmf_rand_oneof(g->r, 16)) {
		base = sl->page;
		n = len = sl->npages;
	}
	if (!mmf_rand_oneof(g->r, 3)) {
		off = rand_offset(g->r, len);
		n = rand_npages(g->r, len - off);
	}
	s->args[at] = m;
	s->args[at + 1] = base + off;
	s->args[at + 2] = n;
}

/* Half the time the same range, else a part of it. */
static void sub_range(struct gen *g, uint64_t *range)
{
	uint64_t off;

	if (mmf_rand_below(g->r, 2))
		return;
	off = rand_offset(g->r, range[2]);
	range[1] += off;
	range[2] = rand_npages(g->r, range[2] - off);
}

static void gen_args(struct gen *g, struct mmf_stmt *s, int from)
{
	const struct mmf_call_desc *d = &mmf_calls[s->id];

	for (int i = from; i < d->nr_args; i++)
		s->args[i] = mmf_arg_generate(g->r, d, i);
}

static void build_default(struct gen *g, struct mmf_stmt *s)
{
	int from = 0;

	if (mmf_calls[s->id].flags & MMF_CALL_RANGE) {
		pick_range(g, s, 0);
		from = 3;
	}
	gen_args(g, s, from);
}

static void make_file(struct gen *g, int f)
{
	struct mmf_stmt s = { .id = mmf_rand_oneof(g->r, 3) ? MMF_TMPFILE : MMF_MEMFD };

	s.args[0] = f;
	s.args[1] = rand_npages(g->r, MMF_SLOT_PAGES);
	push(g, &s);
}

static void build_file(struct gen *g, struct mmf_stmt *s)
{
	unsigned int unmade = ~made_files(g) & ALL_SLOTS(MMF_NR_FILES);

	s->args[0] = rand_slot(g->r, mmf_rand_oneof(g->r, 4) ? 0 : unmade, MMF_NR_FILES);
	s->args[1] = rand_npages(g->r, MMF_SLOT_PAGES);
}

static void build_file_flags(struct gen *g, struct mmf_stmt *s)
{
	build_file(g, s);
	gen_args(g, s, 2);
}

static void build_mmap(struct gen *g, struct mmf_stmt *s)
{
	const struct mmf_flag_set *share = mmf_calls[MMF_MMAP].args[5].set;
	unsigned int unmapped = ~mapped_mask(g) & ALL_SLOTS(MMF_NR_MAPS);
	uint64_t end = MMF_SLOT_PAGES, n;
	int m, f;

	m = rand_slot(g->r, mmf_rand_oneof(g->r, 4) ? 0 : unmapped, MMF_NR_MAPS);
	gen_args(g, s, 3);
	s->args[0] = m;
	s->args[3] = MMF_BACKING_ANON;
	/*
	 * Files are made first (by the parent) and mapped mostly shared. A
	 * page's file offset is its index in the slot: stay inside the file.
	 */
	if (g->body < 0 && mmf_rand_oneof(g->r, 5)) {
		f = rand_slot(g->r, made_files(g), MMF_NR_FILES);
		if (!g->files[f])
			make_file(g, f);
		if (g->files[f] && !mmf_rand_oneof(g->r, 8))
			end = g->files[f];
		if (mmf_rand_below(g->r, 2))
			s->args[5] = set_value(share, "MAP_SHARED");
		s->args[3] = 1 + f;
	} else if (s->args[5] == set_value(share, "MAP_SHARED_VALIDATE")) {
		/* Anonymous memory cannot validate: that is a sure EINVAL. */
		s->args[5] = set_value(share, "MAP_SHARED");
	}
	/* Mappings are mostly larger than the ranges that calls work on. */
	s->args[1] = rand_offset(g->r, end);
	n = rand_npages(g->r, end - s->args[1]);
	s->args[2] = rand_npages(g->r, end - s->args[1]);
	s->args[2] = MAX(s->args[2], n);
	/* Without MAP_FIXED the executor does not replace a mapping. */
	if (g->maps[m].mapped && !mmf_rand_oneof(g->r, 8))
		s->args[6] |= set_value(&mmf_mmap_set, "MAP_FIXED");
	if (mmf_rand_below(g->r, 2))
		g->hot = m;
}

static void build_mremap(struct gen *g, struct mmf_stmt *s)
{
	unsigned int unmapped = ~mapped_mask(g) & ALL_SLOTS(MMF_NR_MAPS);
	uint64_t max;

	pick_range(g, s, 0);
	gen_args(g, s, 6);
	if (s->args[6] & set_value(&mmf_mremap_set, "MREMAP_FIXED")) {
		s->args[3] = rand_slot(g->r, mmf_rand_oneof(g->r, 4) ? 0 : unmapped,
				       MMF_NR_MAPS);
		s->args[4] = rand_offset(g->r, MMF_SLOT_PAGES);
	} else {
		s->args[3] = s->args[0];
		s->args[4] = s->args[1];
	}
	max = MMF_SLOT_PAGES - s->args[4];
	s->args[5] = mmf_rand_below(g->r, 2) ? MIN(s->args[2], max) : rand_npages(g->r, max);
}

static void build_pmadv(struct gen *g, struct mmf_stmt *s)
{
	build_default(g, s);
	s->args[3] = g->children && mmf_rand_oneof(g->r, 3) ?
		1 + rand_bit(g->r, g->children) : MMF_TARGET_SELF;
}

/* A read checks what a write left: write first, mostly. */
static void build_read(struct gen *g, struct mmf_stmt *s)
{
	struct mmf_stmt w = { .id = MMF_WRITE };

	build_default(g, s);
	if (g->body >= 0 || g->maps[s->args[0]].written || mmf_rand_oneof(g->r, 4))
		return;
	memcpy(w.args, s->args, 3 * sizeof(w.args[0]));
	gen_args(g, &w, 3);
	push(g, &w);
}

static void build_swapoff(struct gen *g, struct mmf_stmt *s)
{
	s->args[0] = rand_slot(g->r, ~g->swaps_off & ALL_SLOTS(MMF_NR_SWAPS), MMF_NR_SWAPS);
}

static void build_swapon(struct gen *g, struct mmf_stmt *s)
{
	gen_args(g, s, 1);
	s->args[0] = rand_slot(g->r, g->swaps_off, MMF_NR_SWAPS);
}

static void build_fork(struct gen *g, struct mmf_stmt *s)
{
	s->args[0] = rand_slot(g->r, ~g->children & ALL_SLOTS(MMF_NR_CHILDREN),
			       MMF_NR_CHILDREN);
}

/* Pin calls between a file and memory: a made file, a page inside it. */
static void build_file_io(struct gen *g, struct mmf_stmt *s)
{
	int f;

	build_default(g, s);
	f = rand_slot(g->r, made_files(g), MMF_NR_FILES);
	s->args[3] = f;
	if (g->files[f])
		s->args[4] = rand_offset(g->r, g->files[f]);
}

/* A target is mostly this process, else a live child of the group. */
static uint64_t rand_target(struct gen *g)
{
	return g->children && mmf_rand_oneof(g->r, 3) ? 1 + rand_bit(g->r, g->children) :
		MMF_TARGET_SELF;
}

/* process_vm_*v: a target and a range of it. */
static void build_pvm(struct gen *g, struct mmf_stmt *s)
{
	build_default(g, s);
	s->args[3] = rand_target(g);
	s->args[4] = pick_slot(g);
}

/* track D: placement. */

/* Node 0 mostly (node 1 is EINVAL on one node); DEFAULT and LOCAL take none. */
static int64_t rand_node(struct gen *g)
{
	return mmf_rand_oneof(g->r, 8) ? 1 : 0;
}

static void build_mbind(struct gen *g, struct mmf_stmt *s)
{
	const struct mmf_flag_set *mpol = &mmf_mpol_set;

	build_default(g, s);
	if (s->args[3] == set_value(mpol, "MPOL_DEFAULT") ||
	    s->args[3] == set_value(mpol, "MPOL_LOCAL"))
		s->args[4] = mmf_rand_oneof(g->r, 8) ? 0 : (uint64_t)-1;
	else
		s->args[4] = rand_node(g);
}

static void build_move_pages(struct gen *g, struct mmf_stmt *s)
{
	build_default(g, s);
	s->args[3] = rand_target(g);
	s->args[4] = mmf_rand_oneof(g->r, 4) ? (uint64_t)-1 : (uint64_t)rand_node(g);
}

static void build_migrate_pages(struct gen *g, struct mmf_stmt *s)
{
	s->args[0] = rand_target(g);
	s->args[1] = rand_node(g);
	s->args[2] = rand_node(g);
}

/* Argument builders that know the model; the others are build_default(). */
static void (*const builders[MMF_NR_CALLS])(struct gen *g, struct mmf_stmt *s) = {
	[MMF_MMAP] = build_mmap,
	[MMF_MREMAP] = build_mremap,
	[MMF_PROCESS_MADVISE] = build_pmadv,
	[MMF_READ] = build_read,
	[MMF_MEMFD] = build_file,
	[MMF_TMPFILE] = build_file,
	[MMF_MEMFD_CREATE] = build_file_flags,
	[MMF_MEMFD_SECRET] = build_file,
	[MMF_SWAPOFF] = build_swapoff,
	[MMF_SWAPON] = build_swapon,
	[MMF_FORK] = build_fork,
	/* track A: pins */
	[MMF_DIO_FILE] = build_file,
	[MMF_URING_READ_FIXED] = build_file_io,
	[MMF_URING_WRITE_FIXED] = build_file_io,
	[MMF_DIO_READ] = build_file_io,
	[MMF_DIO_WRITE] = build_file_io,
	[MMF_PROCESS_VM_READV] = build_pvm,
	[MMF_PROCESS_VM_WRITEV] = build_pvm,
	[MMF_MBIND] = build_mbind,
	[MMF_MOVE_PAGES] = build_move_pages,
	[MMF_MIGRATE_PAGES] = build_migrate_pages,
};

/* Calls on pages need a mapping: make one first, mostly. */
static void ensure_mapped(struct gen *g)
{
	struct mmf_stmt s = { .id = MMF_MMAP };

	if (mapped_mask(g) || mmf_rand_oneof(g->r, 8))
		return;
	build_mmap(g, &s);
	push(g, &s);
}

/* A call on range or a part of it, with the given madvise advice. */
static void range_call(struct gen *g, int id, const uint64_t *range, const char *advice)
{
	struct mmf_stmt s = { .id = id };

	memcpy(s.args, range, 3 * sizeof(s.args[0]));
	sub_range(g, s.args);
	gen_args(g, &s, 3);
	if (advice)
		set_last_arg(&s, advice);
	push(g, &s);
}

/*
 * An anonymous page's way through swap: written, paged out, maybe swapped
 * back in, dropped while its swap entry lives, then faulted again.
 */
static void swap_cycle(struct gen *g)
{
	struct mmf_stmt s = { .id = MMF_WRITE };
	uint64_t range[3];

	ensure_mapped(g);
	pick_range(g, &s, 0);
	memcpy(range, s.args, sizeof(range));
	gen_args(g, &s, 3);
	push(g, &s);
	range_call(g, mmf_rand_oneof(g->r, 4) ? MMF_PROCESS_MADVISE : MMF_MADVISE,
		   range, "MADV_PAGEOUT");
	if (mmf_rand_oneof(g->r, 3))
		range_call(g, MMF_READ, range, NULL);
	range_call(g, MMF_MADVISE, range,
		   swap_frees[mmf_rand_below(g->r, ARRAY_SIZE(swap_frees))]);
	range_call(g, mmf_rand_oneof(g->r, 3) ? MMF_WRITE : MMF_READ, range, NULL);
}

/*
 * track D: a PMD-sized THP moved by mremap(MAYMOVE|FIXED[|DONTUNMAP]) to
 * another slot. Slots are 2 MiB-aligned, so page 0 and 512 start PMDs: an
 * aligned source and destination take the PMD move path; a range half a
 * PMD off crosses a page-table boundary and splits the folio on the way.
 */
static void thp_move(struct gen *g)
{
	static const uint16_t offs[] = { 0, 0, 512, 256 };
	const struct mmf_flag_set *share = mmf_calls[MMF_MMAP].args[5].set;
	struct mmf_stmt s = { .id = MMF_MMAP };
	int src = mmf_rand_below(g->r, MMF_NR_MAPS);
	int dst = (src + 1 + mmf_rand_below(g->r, MMF_NR_MAPS - 1)) % MMF_NR_MAPS;
	uint64_t so = offs[mmf_rand_below(g->r, ARRAY_SIZE(offs))];
	uint64_t dof = offs[mmf_rand_below(g->r, ARRAY_SIZE(offs))], n = 512;
	uint64_t range[3] = { src, 0, MMF_SLOT_PAGES };

	if (room(g) < 6)
		return;
	s.args[0] = src;
	s.args[2] = MMF_SLOT_PAGES;
	s.args[3] = MMF_BACKING_ANON;
	s.args[4] = set_value(&mmf_prot_set, "PROT_READ|PROT_WRITE");
	s.args[5] = set_value(share, "MAP_PRIVATE");
	push(g, &s);
	range_call(g, MMF_MADVISE, range, "MADV_HUGEPAGE");
	s = (struct mmf_stmt){ .id = MMF_WRITE, .args = { src, 0, MMF_SLOT_PAGES } };
	gen_args(g, &s, 3);
	push(g, &s);
	if (mmf_rand_oneof(g->r, 3))
		range_call(g, MMF_MADVISE, range, "MADV_COLLAPSE");
	s = (struct mmf_stmt){ .id = MMF_MREMAP, .args = { src, so, n, dst, dof, n } };
	set_last_arg(&s, mmf_rand_oneof(g->r, 3) ? "MREMAP_MAYMOVE|MREMAP_FIXED|MREMAP_DONTUNMAP" :
		     "MREMAP_MAYMOVE|MREMAP_FIXED");
	push(g, &s);
	range[0] = dst;
	range[1] = dof;
	range[2] = n;
	range_call(g, MMF_READ, range, NULL);
}

static void schedule_undo(struct gen *g, const struct mmf_stmt *s)
{
	for (size_t i = 0; i < ARRAY_SIZE(undos); i++) {
		struct mmf_stmt u = { .id = undos[i].undo };

		if (undos[i].id != s->id || (int)mmf_rand_below(g->r, 100) >= undos[i].pct)
			continue;
		memcpy(u.args, s->args, undos[i].nr_copy * sizeof(u.args[0]));
		gen_args(g, &u, undos[i].nr_copy);
		if (undos[i].last)
			set_last_arg(&u, undos[i].last);
		schedule(g, &u, true);
		return;
	}
}

/*
 * issue 7 track B: write-protected pages under reclaim. uffd-wp bits and
 * markers go to swap with the pages; swapoff (and the faults the handler
 * resolves) must find them.
 */
static void uffd_wp_cycle(struct gen *g)
{
	struct mmf_stmt s = { .id = MMF_WRITE }, off = { .id = MMF_SWAPOFF };
	uint64_t range[3];

	ensure_mapped(g);
	pick_range(g, &s, 0);
	memcpy(range, s.args, sizeof(range));
	gen_args(g, &s, 3);
	push(g, &s);
	range_call(g, MMF_UFFD_REGISTER, range, mmf_rand_below(g->r, 2) ?
		   "UFFDIO_REGISTER_MODE_WP" : "UFFDIO_REGISTER_MODE_MISSING|UFFDIO_REGISTER_MODE_WP");
	range_call(g, MMF_UFFD_WRITEPROTECT, range, "UFFDIO_WRITEPROTECT_MODE_WP");
	range_call(g, MMF_MADVISE, range, "MADV_PAGEOUT");
	if (mmf_rand_oneof(g->r, 3) && can_schedule(g)) {
		build_swapoff(g, &off);
		if (push(g, &off))
			schedule_undo(g, &off);
	}
	range_call(g, mmf_rand_oneof(g->r, 3) ? MMF_READ : MMF_WRITE, range, NULL);
}

/* Open a fork or thread block whose body races with the calls after it. */
static void open_block(struct gen *g, const struct mmf_stmt *s)
{
	struct mmf_stmt join = { .id = MMF_JOIN };
	unsigned int mapped;

	if (g->inflight == MMF_MAX_BLOCKS)
		push(g, &join);
	ensure_mapped(g);
	if (room(g) < 3)
		return;
	mapped = mapped_mask(g);
	if (mapped && !(mapped & (1u << g->hot) && mmf_rand_below(g->r, 2)))
		g->hot = rand_bit(g->r, mapped);
	push(g, s);
	g->body = 1 + mmf_rand_below(g->r, 6);
	g->body = MIN(g->body, room(g));
	g->in_fork = s->id == MMF_FORK;
}

static void close_block(struct gen *g)
{
	struct mmf_stmt end = { .id = MMF_END }, join = { .id = MMF_JOIN };

	g->body = -1;
	g->in_fork = false;
	push(g, &end);
	if (mmf_rand_below(g->r, 2))
		schedule(g, &join, false);
}

static bool can_emit(const struct gen *g, int id)
{
	const struct mmf_call_desc *d = &mmf_calls[id];

	/* Block bodies work on pages: no nested blocks, joins or swapoff. */
	if (g->body >= 0)
		return d->flags & MMF_CALL_RANGE;
	switch (d->block) {
	case MMF_BLOCK_FORK:
	case MMF_BLOCK_THREAD:
		return room(g) >= 3 + (g->inflight == MMF_MAX_BLOCKS);
	case MMF_BLOCK_JOIN:
		return g->inflight > 0;
	case MMF_BLOCK_END:
		return false;
	case MMF_BLOCK_NONE:
		break;
	}
	return id != MMF_SWAPOFF || can_schedule(g);
}

static int pick_call(struct gen *g)
{
	int total = 0, x;

	for (int id = 0; id < MMF_NR_CALLS; id++)
		total += can_emit(g, id) ? mmf_calls[id].weight : 0;
	x = mmf_rand_below(g->r, total);
	for (int id = 0;; id++)
		if (can_emit(g, id) && (x -= mmf_calls[id].weight) < 0)
			return id;
}

/* Add at least one statement (there is room for one). */
static void step(struct gen *g)
{
	struct mmf_stmt s = { 0 };
	enum mmf_block block;

	if (g->body == 0) {
		close_block(g);
		return;
	}
	if (g->body < 0 && emit_due(g, false))
		return;
	if (g->body < 0 && mmf_rand_oneof(g->r, 8)) {
		swap_cycle(g);
		return;
	}
	if (g->body < 0 && mmf_rand_oneof(g->r, 32)) {
		uffd_wp_cycle(g);
		return;
	}
	if (g->body < 0 && mmf_rand_oneof(g->r, 24)) {
		thp_move(g);
		return;
	}
	s.id = pick_call(g);
	block = mmf_calls[s.id].block;
	if (g->body < 0 && s.id != MMF_MMAP && mmf_calls[s.id].flags & MMF_CALL_RANGE)
		ensure_mapped(g);
	(builders[s.id] ?: build_default)(g, &s);
	if (block == MMF_BLOCK_FORK || block == MMF_BLOCK_THREAD)
		open_block(g, &s);
	else if (push(g, &s))
		schedule_undo(g, &s);
}

void mmf_prog_generate(struct mmf_rand *r, int nr_calls, struct mmf_prog *p)
{
	struct gen g = {
		.r = r,
		.p = p,
		.limit = MAX(0, MIN(nr_calls, MMF_MAX_STMTS)),
		.body = -1,
	};

	p->nr = 0;
	p->text_len = 0;
	while (room(&g) > 0)
		step(&g);
	if (g.body >= 0)
		close_block(&g);
	while (emit_due(&g, true))
		;
}
