// SPDX-License-Identifier: GPL-2.0
/* map: the arena's mapping slots. */
#include "model/builder.h"
#include "model/uapi.h"

MMF_FLAG_SET(mmf_prot_set, "prot",
	{ "PROT_NONE", 0x0 }, { "PROT_READ", 0x1 }, { "PROT_WRITE", MMF_PROT_WRITE },
	{ "PROT_EXEC", 0x4 });

/* MAP_SHARED/MAP_PRIVATE are the share argument; MAP_ANONYMOUS the backing. */
MMF_FLAG_SET(mmf_share_set, "share",
	{ "MAP_PRIVATE", 0x02 }, { "MAP_SHARED", 0x01 },
	{ "MAP_SHARED_VALIDATE", MMF_MAP_SHARED_VALIDATE });

MMF_FLAG_SET(mmf_mmap_set, "mmap",
	{ "MAP_FIXED", MMF_MAP_FIXED }, { "MAP_LOCKED", MMF_MAP_LOCKED },
	{ "MAP_NORESERVE", 0x4000 }, { "MAP_POPULATE", MMF_MAP_POPULATE },
	{ "MAP_NONBLOCK", 0x10000 });

MMF_FLAG_SET(mmf_mremap_set, "mremap",
	{ "MREMAP_MAYMOVE", 0x1 }, { "MREMAP_FIXED", 0x2 },
	{ "MREMAP_DONTUNMAP", 0x4 });

/*
 * Mappings the kernel backs with its own pages that can sit in a slot. Not
 * io_uring's rings: io_uring_get_unmapped_area() refuses any address we
 * choose, and mremap() of the ring VMA fails (EINVAL, 6.18).
 */
MMF_FLAG_SET(mmf_special_set, "special", { "PERF_RING", 0 });

static void map_set(struct gen *g, int m, uint64_t page, uint64_t npages, bool written)
{
	g->maps[m] = (struct gen_slot){ true, written, page, npages };
}

/* Take [page, page + n) out of slot m's mapping; holes are not tracked. */
static void unmap(struct gen *g, int m, uint64_t page, uint64_t n)
{
	struct gen_slot *sl = &g->maps[m];
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

static void build_mmap(struct gen *g, struct mmf_stmt *s)
{
	const struct mmf_flag_set *share = &mmf_share_set;
	unsigned int unmapped = ~gen_mapped_mask(g) & ALL_SLOTS(MMF_NR_MAPS);
	uint64_t end = MMF_SLOT_PAGES, n;
	int m, f;

	m = gen_rand_slot(g->r, mmf_rand_oneof(g->r, 4) ? 0 : unmapped, MMF_NR_MAPS);
	mmf_gen_args(g, s, 3);
	s->args[0] = m;
	s->args[3] = MMF_BACKING_ANON;
	/*
	 * Files are made first (by the parent) and mapped mostly shared. A
	 * page's file offset is its index in the slot: stay inside the file.
	 */
	if (g->body < 0 && mmf_rand_oneof(g->r, 5)) {
		f = gen_rand_slot(g->r, gen_made_files(g), MMF_NR_FILES);
		if (!g->files[f])
			mmf_gen_make_file(g, f);
		if (g->files[f] && !mmf_rand_oneof(g->r, 8))
			end = g->files[f];
		if (mmf_rand_below(g->r, 2))
			s->args[5] = mmf_gen_set_value(share, "MAP_SHARED");
		s->args[3] = 1 + f;
	} else if (s->args[5] == mmf_gen_set_value(share, "MAP_SHARED_VALIDATE")) {
		/* Anonymous memory cannot validate: that is a sure EINVAL. */
		s->args[5] = mmf_gen_set_value(share, "MAP_SHARED");
	}
	/* Mappings are mostly larger than the ranges that calls work on. */
	s->args[1] = mmf_gen_rand_offset(g->r, end);
	n = mmf_gen_rand_npages(g->r, end - s->args[1]);
	s->args[2] = mmf_gen_rand_npages(g->r, end - s->args[1]);
	s->args[2] = MAX(s->args[2], n);
	/* Without MAP_FIXED the executor does not replace a mapping. */
	if (g->maps[m].mapped && !mmf_rand_oneof(g->r, 8))
		s->args[6] |= mmf_gen_set_value(&mmf_mmap_set, "MAP_FIXED");
	if (mmf_rand_below(g->r, 2))
		g->hot = m;
}

static void apply_mmap(struct gen *g, const struct mmf_stmt *s)
{
	map_set(g, s->args[0], s->args[1], s->args[2], false);
}

static const struct mmf_bias mmap_biases[] = {
	{ &mmf_prot_set, 85, { "PROT_READ|PROT_WRITE", "PROT_READ|PROT_WRITE",
		"PROT_READ|PROT_WRITE", "PROT_READ|PROT_WRITE", "PROT_READ" } },
	{ &mmf_share_set, 80, { "MAP_PRIVATE", "MAP_PRIVATE", "MAP_PRIVATE", "MAP_SHARED" } },
	{ &mmf_mmap_set, 90, { "", "", "", "MAP_POPULATE", "MAP_NORESERVE" } },
};

MMF_BUILDER(mmap, build_mmap, .apply = apply_mmap, MMF_BIASES(mmap_biases));

static void apply_munmap(struct gen *g, const struct mmf_stmt *s)
{
	unmap(g, s->args[0], s->args[1], s->args[2]);
}

MMF_BUILDER(munmap, mmf_gen_default, .apply = apply_munmap);

static void build_mremap(struct gen *g, struct mmf_stmt *s)
{
	unsigned int unmapped = ~gen_mapped_mask(g) & ALL_SLOTS(MMF_NR_MAPS);
	uint64_t max;

	mmf_gen_pick_range(g, s, 0);
	mmf_gen_args(g, s, 6);
	if (s->args[6] & mmf_gen_set_value(&mmf_mremap_set, "MREMAP_FIXED")) {
		s->args[3] = gen_rand_slot(g->r, mmf_rand_oneof(g->r, 4) ? 0 : unmapped,
					   MMF_NR_MAPS);
		s->args[4] = mmf_gen_rand_offset(g->r, MMF_SLOT_PAGES);
	} else {
		s->args[3] = s->args[0];
		s->args[4] = s->args[1];
	}
	max = MMF_SLOT_PAGES - s->args[4];
	s->args[5] = mmf_rand_below(g->r, 2) ? MIN(s->args[2], max) :
		mmf_gen_rand_npages(g->r, max);
}

static void apply_mremap(struct gen *g, const struct mmf_stmt *s)
{
	const uint64_t *a = s->args;
	/* Without MREMAP_FIXED the generator resizes in place. */
	bool written = g->maps[a[0]].written;

	if (!(a[6] & mmf_gen_set_value(&mmf_mremap_set, "MREMAP_DONTUNMAP")))
		unmap(g, a[0], a[1], a[2]);
	map_set(g, a[3], a[4], a[5], written);
}

static const struct mmf_bias mremap_biases[] = {
	{ &mmf_mremap_set, 85, { "MREMAP_MAYMOVE", "MREMAP_MAYMOVE|MREMAP_FIXED",
		"MREMAP_MAYMOVE|MREMAP_FIXED",
		"MREMAP_MAYMOVE|MREMAP_FIXED|MREMAP_DONTUNMAP" } },
};

MMF_BUILDER(mremap, build_mremap, .apply = apply_mremap, MMF_BIASES(mremap_biases));

/* Take access away, for the undo to give it back. */
static const struct mmf_bias mprotect_biases[] = {
	{ &mmf_prot_set, 80, { "PROT_READ", "PROT_READ", "PROT_NONE", "PROT_READ|PROT_EXEC" } },
};

MMF_BUILDER(mprotect, mmf_gen_default, MMF_BIASES(mprotect_biases),
	    .undo = { MMF_MPROTECT, 3, 75, "PROT_READ|PROT_WRITE" });

MMF_BUILD_DEFAULT(special_map);
