// SPDX-License-Identifier: GPL-2.0
/*
 * Program generation, in the manner of syzkaller's and trinity's: a small
 * model of what the program did so far (which slots are mapped and where,
 * which were written, which files exist, which swap devices are off, which
 * blocks are open) steers most calls onto mapped, in-range pages, so that
 * they move pages between states (present, swapped, locked, shared, huge)
 * instead of failing with EFAULT or ENOMEM. Calls that a later call undoes
 * (mlock, swapoff, ...) get that call scheduled a few statements later.
 * What is particular to a call (its arguments, what it changes in the
 * model, its undo) is its builder, mmf_build_FN in model/calls/FAMILY.c.
 */
#include <assert.h>
#include <string.h>

#include "model/builder.h"
#include "model/prog.h"
#include "model/uapi.h"
#include "util/rand.h"
#include "util/util.h"

#define MMF_CALL(id, fn, ...)	extern const struct mmf_builder mmf_build_##fn;
#define MMF_BLOCK(id, fn, ...)	extern const struct mmf_builder mmf_build_##fn;
#include "model/calls.def"
#undef MMF_CALL
#undef MMF_BLOCK

static const struct mmf_builder *const builders[MMF_NR_CALLS] = {
#define MMF_CALL(id, fn, ...)							\
	[MMF_##id] = &mmf_build_##fn,
#define MMF_BLOCK(id, fn, ...)							\
	[MMF_##id] = &mmf_build_##fn,
#include "model/calls.def"
#undef MMF_CALL
#undef MMF_BLOCK
};

/* Offsets in a mapping: 0 and folio multiples (64 KiB, 2 MiB) start folios. */
static const uint16_t offset_align[] = { 0, 0, 0, 0, 16, 16, 16, 512, 512, 1 };

uint64_t mmf_gen_set_value(const struct mmf_flag_set *set, const char *names)
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

	s->args[d->nr_args - 1] = mmf_gen_set_value(d->args[d->nr_args - 1].set, names);
}

static const struct mmf_bias *find_bias(const struct mmf_call_desc *d,
					const struct mmf_flag_set *set)
{
	const struct mmf_builder *b = builders[d - mmf_calls];

	for (int i = 0; i < b->nr_biases; i++)
		if (b->biases[i].set == set)
			return &b->biases[i];
	return NULL;
}

static uint64_t rand_set_value(struct mmf_rand *r, const struct mmf_call_desc *d,
			       const struct mmf_arg_desc *a)
{
	const struct mmf_bias *b = find_bias(d, a->set);
	const struct mmf_flag_set *set = a->set;
	uint64_t v = 0;
	int n = 0;

	if (b && (int)mmf_rand_below(r, 100) < b->pct) {
		while (n < (int)ARRAY_SIZE(b->vals) && b->vals[n])
			n++;
		return mmf_gen_set_value(set, b->vals[mmf_rand_below(r, n)]);
	}
	if (a->type == MMF_ARG_ENUM)
		return set->flags[mmf_rand_below(r, set->nr)].val;
	for (int i = 0; i < set->nr; i++)
		if (mmf_rand_below(r, 2))
			v |= set->flags[i].val;
	return v;
}

uint64_t mmf_gen_rand_offset(struct mmf_rand *r, uint64_t limit)
{
	uint64_t a = offset_align[mmf_rand_below(r, ARRAY_SIZE(offset_align))];

	return a ? mmf_rand_below(r, (limit + a - 1) / a) * a : 0;
}

/*
 * Folio sizes from one page to a whole slot, sometimes a page off so that
 * the range ends inside a folio and splits it.
 */
uint64_t mmf_gen_rand_npages(struct mmf_rand *r, uint64_t max)
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
		return mmf_gen_rand_offset(r, MMF_SLOT_PAGES);
	case MMF_ARG_NPAGES:
		return mmf_gen_rand_npages(r, MMF_SLOT_PAGES);
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

static int room(const struct gen *g)
{
	return g->limit - g->p->nr - (g->body >= 0) - g->reserved;
}

static bool can_schedule(const struct gen *g)
{
	return g->nr_pending < (int)ARRAY_SIZE(g->pending) && room(g) >= 2;
}

bool mmf_gen_push(struct gen *g, const struct mmf_stmt *s)
{
	const struct mmf_builder *b = builders[s->id];

	if (room(g) < 1)
		return false;
	memcpy(mmf_prog_append(g->p, s->id)->args, s->args, sizeof(s->args));
	if (g->body > 0)
		g->body--;
	if (!g->in_fork && b->apply)
		b->apply(g, s);
	return true;
}

/*
 * Emit s a few statements from now; reserved ones (undos) are emitted by
 * the end, and nest: the latest comes first (an unregister after the
 * write protection inside the range is taken away).
 */
static void schedule(struct gen *g, const struct mmf_stmt *s, bool reserve)
{
	struct gen_pending *pd;
	int due = g->p->nr + 1 + mmf_rand_below(g->r, 8);

	if (g->nr_pending == (int)ARRAY_SIZE(g->pending) || (reserve && room(g) < 1))
		return;
	if (reserve) {
		for (int i = 0; i < g->nr_pending; i++)
			if (g->pending[i].reserved)
				due = MIN(due, g->pending[i].due);
		memmove(&g->pending[1], &g->pending[0], g->nr_pending * sizeof(*pd));
		pd = &g->pending[0];
	} else {
		pd = &g->pending[g->nr_pending];
	}
	g->nr_pending++;
	pd->s = *s;
	pd->due = due;
	pd->reserved = reserve;
	g->reserved += reserve;
}

/* Emit the first due pending statement; false when none was emitted. */
static bool emit_due(struct gen *g, bool all)
{
	for (int i = 0; i < g->nr_pending; i++) {
		struct gen_pending pd = g->pending[i];

		if (all ? !pd.reserved : pd.due > g->p->nr)
			continue;
		g->nr_pending--;
		memmove(&g->pending[i], &g->pending[i + 1], (g->nr_pending - i) * sizeof(pd));
		g->reserved -= pd.reserved;
		/* A join scheduled after a block is moot once another joined it. */
		if (pd.s.id == MMF_JOIN && !g->inflight)
			return false;
		return mmf_gen_push(g, &pd.s);
	}
	return false;
}

int mmf_gen_pick_slot(struct gen *g)
{
	unsigned int mapped = gen_mapped_mask(g);

	/* Blocks and the calls after them race on the same pages. */
	if (mapped & (1u << g->hot) && mmf_rand_below(g->r, g->body >= 0 ? 4 : 2))
		return g->hot;
	if (mapped && !mmf_rand_oneof(g->r, 16))
		return gen_rand_bit(g->r, mapped);
	return mmf_rand_below(g->r, MMF_NR_MAPS);
}

/* Args at..at+2: slot m, [base, base + len) or, two thirds of the time, a part of it. */
static void place_range(struct gen *g, struct mmf_stmt *s, int at, int m, uint64_t base,
			uint64_t len)
{
	uint64_t off = 0, n = len;

	if (!mmf_rand_oneof(g->r, 3)) {
		off = mmf_gen_rand_offset(g->r, len);
		n = mmf_gen_rand_npages(g->r, len - off);
	}
	s->args[at] = m;
	s->args[at + 1] = base + off;
	s->args[at + 2] = n;
}

void mmf_gen_range_in(struct gen *g, struct mmf_stmt *s, int at, int m)
{
	place_range(g, s, at, m, g->maps[m].page, g->maps[m].npages);
}

/* Args at..at+2 (map, page, npages): mostly inside a mapping of the slot. */
void mmf_gen_pick_range(struct gen *g, struct mmf_stmt *s, int at)
{
	int m = mmf_gen_pick_slot(g);

	if (g->maps[m].mapped && !mmf_rand_oneof(g->r, 16))
		mmf_gen_range_in(g, s, at, m);
	else
		place_range(g, s, at, m, 0, MMF_SLOT_PAGES);
}

int mmf_gen_pick_mem(struct gen *g, unsigned int mems, bool writable, int avoid)
{
	unsigned int mask = 0;

	for (int i = 0; i < MMF_NR_MAPS; i++) {
		const struct gen_slot *sl = &g->maps[i];

		if (sl->mapped && mems & 1u << sl->mem && (!writable || sl->prot & MMF_PROT_WRITE) &&
		    i != avoid)
			mask |= 1u << i;
	}
	if (!mask)
		return -1;
	/* Blocks and the calls after them race on the same pages. */
	if (mask & 1u << g->hot && mmf_rand_below(g->r, 2))
		return g->hot;
	return gen_rand_bit(g->r, mask);
}

void mmf_gen_cut(uint16_t *start, uint16_t *len, uint64_t page, uint64_t n)
{
	uint64_t end = page + n, r_end = *start + *len;

	if (!*len || end <= *start || page >= r_end)
		return;
	if (page <= *start && end >= r_end) {
		*len = 0;
	} else if (page <= *start) {
		*len = r_end - end;
		*start = end;
	} else if (end >= r_end) {
		*len = page - *start;
	}
}

static void vma_start(struct gen *g, int m, uint64_t page)
{
	if (page < MMF_SLOT_PAGES)
		g->maps[m].vma_starts[page / 64] |= 1ull << page % 64;
}

void mmf_gen_split(struct gen *g, const struct mmf_stmt *s)
{
	vma_start(g, s->args[0], s->args[1]);
	vma_start(g, s->args[0], s->args[1] + s->args[2]);
}

void mmf_gen_one_vma(const struct gen *g, uint64_t *range)
{
	const uint64_t *starts = g->maps[range[0]].vma_starts;

	for (uint64_t p = range[1] + 1; p < range[1] + range[2] && p < MMF_SLOT_PAGES; p++)
		if (starts[p / 64] & 1ull << p % 64) {
			range[2] = p - range[1];
			return;
		}
}

void mmf_gen_sub_range(struct gen *g, uint64_t *range)
{
	uint64_t off;

	if (mmf_rand_below(g->r, 2))
		return;
	off = mmf_gen_rand_offset(g->r, range[2]);
	range[1] += off;
	range[2] = mmf_gen_rand_npages(g->r, range[2] - off);
}

void mmf_gen_args(struct gen *g, struct mmf_stmt *s, int from)
{
	const struct mmf_call_desc *d = &mmf_calls[s->id];

	for (int i = from; i < d->nr_args; i++)
		s->args[i] = d->args[i].type == MMF_ARG_TARGET ? mmf_gen_rand_target(g) :
			     mmf_arg_generate(g->r, d, i);
}

void mmf_gen_default(struct gen *g, struct mmf_stmt *s)
{
	int from = 0;

	if (mmf_calls[s->id].flags & MMF_CALL_RANGE) {
		mmf_gen_pick_range(g, s, 0);
		from = 3;
	}
	mmf_gen_args(g, s, from);
}

/* A target is mostly this process, else a live child of the group. */
uint64_t mmf_gen_rand_target(struct gen *g)
{
	/* A child knows its siblings forked before it, not itself. */
	unsigned int kids = g->children & ~(g->in_fork ? 1u << g->forked : 0);

	return kids && mmf_rand_oneof(g->r, 3) ? 1 + gen_rand_bit(g->r, kids) : MMF_TARGET_SELF;
}

/* Calls on pages need a mapping: make one first, mostly. */
static void ensure_mapped(struct gen *g)
{
	struct mmf_stmt s = { .id = MMF_MMAP };

	if (gen_mapped_mask(g) || mmf_rand_oneof(g->r, 8))
		return;
	builders[MMF_MMAP]->build(g, &s);
	mmf_gen_push(g, &s);
}

/* A call on range or a part of it, with the given madvise advice. */
static void range_call(struct gen *g, int id, const uint64_t *range, const char *advice)
{
	struct mmf_stmt s = { .id = id };

	memcpy(s.args, range, 3 * sizeof(s.args[0]));
	mmf_gen_sub_range(g, s.args);
	mmf_gen_args(g, &s, 3);
	if (advice)
		set_last_arg(&s, advice);
	mmf_gen_push(g, &s);
}

/* A read or a write of range or a part of it. */
static void touch(struct gen *g, const uint64_t *range)
{
	range_call(g, mmf_rand_oneof(g->r, 3) ? MMF_WRITE : MMF_READ, range, NULL);
}

/*
 * Advice that frees a range's pages where they may be swapped, by the
 * mapping's memory: the ways free_swap_and_cache_nr() is reached are a
 * zap (DONTNEED), a lazy free (FREE: private anonymous memory only) and
 * shmem's truncation (REMOVE: shared shmem only, whose swap entries live
 * in the page cache, where a zap leaves them).
 */
static const char *swap_free_advice(struct gen *g, const uint64_t *range)
{
	static const char *const by_mem[][2] = {
		[GEN_MEM_ANON] = { "MADV_FREE", "MADV_DONTNEED" },
		[GEN_MEM_SHARED] = { "MADV_REMOVE", "MADV_DONTNEED" },
		[GEN_MEM_PRIVATE] = { "MADV_DONTNEED", "MADV_DONTNEED" },
		[GEN_MEM_OTHER] = { "MADV_DONTNEED", "MADV_DONTNEED" },
	};
	const struct gen_slot *sl = &g->maps[range[0]];

	return by_mem[sl->mapped ? sl->mem : GEN_MEM_ANON][mmf_rand_below(g->r, 2)];
}

/*
 * A page's way through reclaim, its freeing advice on either side of it.
 * Advice after reclaim drops the page while its swap entry lives; advice
 * before it makes an anonymous page lazy-free (MADV_FREE), to be discarded
 * by reclaim unless it was written again in between, or truncates shmem's
 * (MADV_REMOVE) before reclaim finds it. Either way the page is faulted
 * again at the end, where the data oracle reads it.
 */
static void swap_cycle(struct gen *g)
{
	struct mmf_stmt s = { .id = MMF_WRITE };
	bool advice_first = mmf_rand_oneof(g->r, 3);
	const char *advice;
	uint64_t range[3];

	ensure_mapped(g);
	mmf_gen_pick_range(g, &s, 0);
	memcpy(range, s.args, sizeof(range));
	advice = swap_free_advice(g, range);
	mmf_gen_args(g, &s, 3);
	mmf_gen_push(g, &s);
	if (advice_first) {
		range_call(g, MMF_MADVISE, range, advice);
		if (!mmf_rand_oneof(g->r, 3))
			touch(g, range);
	}
	range_call(g, mmf_rand_oneof(g->r, 4) ? MMF_PROCESS_MADVISE : MMF_MADVISE,
		   range, "MADV_PAGEOUT");
	if (!advice_first) {
		if (mmf_rand_oneof(g->r, 3))
			range_call(g, MMF_READ, range, NULL);
		range_call(g, MMF_MADVISE, range, advice);
	}
	touch(g, range);
}

/*
 * A PMD-sized THP moved by mremap(MAYMOVE|FIXED[|DONTUNMAP]) to another
 * slot. Slots are 2 MiB-aligned, so page 0 and 512 start PMDs: an
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
	s.args[4] = mmf_gen_set_value(&mmf_prot_set, "PROT_READ|PROT_WRITE");
	s.args[5] = mmf_gen_set_value(share, "MAP_PRIVATE");
	mmf_gen_push(g, &s);
	range_call(g, MMF_MADVISE, range, "MADV_HUGEPAGE");
	s = (struct mmf_stmt){ .id = MMF_WRITE, .args = { src, 0, MMF_SLOT_PAGES } };
	mmf_gen_args(g, &s, 3);
	mmf_gen_push(g, &s);
	if (mmf_rand_oneof(g->r, 3))
		range_call(g, MMF_MADVISE, range, "MADV_COLLAPSE");
	s = (struct mmf_stmt){ .id = MMF_MREMAP, .args = { src, so, n, dst, dof, n } };
	set_last_arg(&s, mmf_rand_oneof(g->r, 3) ? "MREMAP_MAYMOVE|MREMAP_FIXED|MREMAP_DONTUNMAP" :
		     "MREMAP_MAYMOVE|MREMAP_FIXED");
	mmf_gen_push(g, &s);
	range[0] = dst;
	range[1] = dof;
	range[2] = n;
	range_call(g, MMF_READ, range, NULL);
}

static void schedule_undo(struct gen *g, const struct mmf_stmt *s)
{
	const struct mmf_undo *undo = &builders[s->id]->undo;
	struct mmf_stmt u = { .id = undo->id };

	if (!undo->pct || (int)mmf_rand_below(g->r, 100) >= undo->pct)
		return;
	memcpy(u.args, s->args, undo->nr_copy * sizeof(u.args[0]));
	mmf_gen_args(g, &u, undo->nr_copy);
	if (undo->last)
		set_last_arg(&u, undo->last);
	schedule(g, &u, true);
}

/*
 * Write-protected pages under reclaim. uffd-wp bits and markers go to swap
 * with the pages; swapoff (and the faults the handler resolves) must find
 * them.
 */
static void uffd_wp_cycle(struct gen *g)
{
	struct mmf_stmt s = { .id = MMF_WRITE }, off = { .id = MMF_SWAPOFF };
	struct mmf_stmt reg = { .id = MMF_UFFD_REGISTER };
	uint64_t range[3];

	ensure_mapped(g);
	mmf_gen_pick_range(g, &s, 0);
	memcpy(range, s.args, sizeof(range));
	mmf_gen_args(g, &s, 3);
	mmf_gen_push(g, &s);
	/* Write protection works on registered pages: a part of what was registered. */
	memcpy(reg.args, range, sizeof(range));
	mmf_gen_sub_range(g, reg.args);
	set_last_arg(&reg, mmf_rand_below(g->r, 2) ? "UFFDIO_REGISTER_MODE_WP" :
		     "UFFDIO_REGISTER_MODE_MISSING|UFFDIO_REGISTER_MODE_WP");
	mmf_gen_push(g, &reg);
	range_call(g, MMF_UFFD_WRITEPROTECT, reg.args, "UFFDIO_WRITEPROTECT_MODE_WP");
	range_call(g, MMF_MADVISE, range, "MADV_PAGEOUT");
	if (mmf_rand_oneof(g->r, 3) && can_schedule(g)) {
		builders[MMF_SWAPOFF]->build(g, &off);
		if (mmf_gen_push(g, &off))
			schedule_undo(g, &off);
	}
	range_call(g, mmf_rand_oneof(g->r, 3) ? MMF_READ : MMF_WRITE, range, NULL);
}

/* Longest delays of a race's sweep: a few instructions to a slow syscall (TCG). */
static const uint32_t race_spans_ns[] = { 2000, 20000, 200000, 2000000, MMF_RACE_MAX_DELAY_NS };

/* A race statement: the group that follows meets in rounds, its window swept. */
static void push_race(struct gen *g, int delayed)
{
	struct mmf_stmt s = { .id = MMF_RACE };

	s.args[0] = 2u << mmf_rand_below(g->r, 4);
	s.args[1] = delayed;
	s.args[2] = 0;
	s.args[3] = race_spans_ns[mmf_rand_below(g->r, ARRAY_SIZE(race_spans_ns))];
	mmf_gen_push(g, &s);
}

/* Open a fork or thread block whose body races with the calls after it. */
static void open_block(struct gen *g, const struct mmf_stmt *s)
{
	struct mmf_stmt join = { .id = MMF_JOIN };
	unsigned int mapped;

	if (g->inflight == MMF_MAX_BLOCKS)
		mmf_gen_push(g, &join);
	ensure_mapped(g);
	if (room(g) < 3)
		return;
	/* A group's first block: a third of them race on purpose. */
	if (!g->inflight && room(g) >= 4 && mmf_rand_oneof(g->r, 3))
		push_race(g, mmf_rand_below(g->r, 2));
	mapped = gen_mapped_mask(g);
	if (mapped && !(mapped & (1u << g->hot) && mmf_rand_below(g->r, 2)))
		g->hot = gen_rand_bit(g->r, mapped);
	mmf_gen_push(g, s);
	g->body = 1 + mmf_rand_below(g->r, 6);
	g->body = MIN(g->body, room(g));
	g->in_fork = mmf_calls[s->id].block == MMF_BLOCK_FORK;
}

/* A racing pattern's start: its own group, on a range (and its write, s). */
static void race_start(struct gen *g, struct mmf_stmt *s, uint64_t *range)
{
	struct mmf_stmt join = { .id = MMF_JOIN };

	if (g->inflight)
		mmf_gen_push(g, &join);
	ensure_mapped(g);
	mmf_gen_pick_range(g, s, 0);
	memcpy(range, s->args, 3 * sizeof(range[0]));
	mmf_gen_args(g, s, 3);
}

/* A block's call on the racing range: it frees it one time in frees, else touches it. */
static void race_touch(struct gen *g, const uint64_t *range, int frees)
{
	if (frees && mmf_rand_oneof(g->r, frees))
		range_call(g, MMF_MADVISE, range, swap_free_advice(g, range));
	else
		range_call(g, mmf_rand_oneof(g->r, 2) ? MMF_READ : MMF_WRITE, range, NULL);
}

/*
 * swapoff against faults and frees of the pages it brings back: a block
 * pages a range out and touches it again while the main line turns the
 * swap device off and on, the window walked through in rounds.
 */
static void swapoff_race(struct gen *g)
{
	struct mmf_stmt s = { .id = MMF_WRITE }, th = { .id = MMF_THREAD };
	struct mmf_stmt off = { .id = MMF_SWAPOFF }, on = { .id = MMF_SWAPON };
	struct mmf_stmt end = { .id = MMF_END }, join = { .id = MMF_JOIN };
	uint64_t range[3];

	race_start(g, &s, range);
	mmf_gen_push(g, &s);
	push_race(g, mmf_rand_below(g->r, 2));
	mmf_gen_push(g, &th);
	g->body = 2;
	range_call(g, MMF_MADVISE, range, "MADV_PAGEOUT");
	race_touch(g, range, 2);
	g->body = -1;
	mmf_gen_push(g, &end);
	builders[MMF_SWAPOFF]->build(g, &off);
	mmf_gen_push(g, &off);
	on.args[0] = off.args[0];
	mmf_gen_args(g, &on, 1);
	mmf_gen_push(g, &on);
	mmf_gen_push(g, &join);
}

/*
 * Faults racing on the same swapped pages: each round the main line
 * writes a range and pages it out while two blocks wait, then both fault
 * it back at once (swap-in against swap-in: one maps, the other must see
 * that it did), or one frees it while the other faults it in.
 */
static void swapin_race(struct gen *g)
{
	struct mmf_stmt th = { .id = MMF_THREAD }, s = { .id = MMF_WRITE };
	struct mmf_stmt end = { .id = MMF_END }, join = { .id = MMF_JOIN };
	uint64_t range[3];

	race_start(g, &s, range);
	push_race(g, 1 + mmf_rand_below(g->r, 2));
	for (int k = 0; k < 2; k++) {
		mmf_gen_push(g, &th);
		g->body = 1;
		race_touch(g, range, k ? 3 : 0);
		g->body = -1;
		mmf_gen_push(g, &end);
		if (k)
			break;
		/* Between the blocks: the main line's part of each round, before they meet. */
		mmf_gen_push(g, &s);
		range_call(g, MMF_MADVISE, range, "MADV_PAGEOUT");
	}
	mmf_gen_push(g, &join);
}

static void close_block(struct gen *g)
{
	struct mmf_stmt end = { .id = MMF_END }, join = { .id = MMF_JOIN };

	g->body = -1;
	g->in_fork = false;
	mmf_gen_push(g, &end);
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
	case MMF_BLOCK_RACE:	/* only before a block that open_block() opens */
		return false;
	case MMF_BLOCK_NONE:
		break;
	}
	/* A call that is always undone (swapoff) needs room for its undo. */
	return builders[id]->undo.pct < 100 || can_schedule(g);
}

static int pick_call(struct gen *g)
{
	int total = 0, x;

	for (int id = 0; id < MMF_NR_CALLS; id++)
		total += can_emit(g, id) ? mmf_calls[id].weight : 0;
	x = mmf_rand_below(g->r, total);
	for (int id = 0;; id++) {
		if (!can_emit(g, id))
			continue;
		x -= mmf_calls[id].weight;
		if (x < 0)
			return id;
	}
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
	if (g->body < 0 && room(g) >= 12 && mmf_rand_oneof(g->r, 12)) {
		if (mmf_rand_oneof(g->r, 2))
			swapoff_race(g);
		else
			swapin_race(g);
		return;
	}
	s.id = pick_call(g);
	block = mmf_calls[s.id].block;
	/* A range call that makes its mapping (mmap) needs none before it. */
	if (g->body < 0 && (mmf_calls[s.id].flags & (MMF_CALL_RANGE | MMF_CALL_DEFINES)) ==
	    MMF_CALL_RANGE)
		ensure_mapped(g);
	builders[s.id]->build(g, &s);
	if (block == MMF_BLOCK_FORK || block == MMF_BLOCK_THREAD)
		open_block(g, &s);
	else if (mmf_gen_push(g, &s))
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

int mmf_prog_generate_at(struct mmf_rand *r, const struct mmf_prog *p, int at,
			 struct mmf_stmt *out, int max)
{
	/* The scratch program: p's calls before at, then what is generated. */
	struct mmf_prog q;
	struct gen g = { .r = r, .p = &q, .limit = MMF_MAX_STMTS, .body = -1 };
	bool inside = false;
	int from, n;

	q.nr = 0;
	q.text_len = 0;
	for (int k = 0; k < at && k < p->nr; k++) {
		const struct mmf_stmt *s = &p->stmts[k];
		enum mmf_block b;

		if (s->id == MMF_COMMENT)
			continue;
		b = mmf_calls[s->id].block;
		mmf_gen_push(&g, s);
		if (b == MMF_BLOCK_FORK || b == MMF_BLOCK_THREAD) {
			inside = true;
			g.in_fork = b == MMF_BLOCK_FORK;
		} else if (b == MMF_BLOCK_END) {
			inside = false;
			g.in_fork = false;
		}
	}
	from = q.nr;
	/* Room for a call and what it needs first, or a whole block. */
	g.limit = from + MIN(max, 12);
	if (inside) {
		g.limit = MIN(g.limit, from + 2);
		g.body = 1;
		step(&g);
	} else {
		step(&g);
		while (g.body >= 0) {
			if (g.body > 0 && room(&g) > 0)
				step(&g);
			else
				close_block(&g);
		}
	}
	/* Undos still pending are left out: the program goes on as it was. */
	n = MIN(q.nr - from, max);
	memcpy(out, &q.stmts[from], n * sizeof(*out));
	return n;
}
