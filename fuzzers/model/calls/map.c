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

static void map_set(struct gen *g, int m, uint64_t page, uint64_t npages, bool written, int mem,
		    uint64_t prot)
{
	g->maps[m] = (struct gen_slot){ .mapped = true, .written = written, .mem = mem,
					.prot = prot, .page = page, .npages = npages };
}

/* Take [page, page + n) out of slot m's mapping and registration. */
static void unmap(struct gen *g, int m, uint64_t page, uint64_t n)
{
	struct gen_slot *sl = &g->maps[m];

	if (!sl->mapped)
		return;
	mmf_gen_cut(&sl->page, &sl->npages, page, n);
	mmf_gen_cut(&sl->uffd_page, &sl->uffd_npages, page, n);
	sl->mapped = sl->npages;
}

/* Map anonymous memory, private or shared (mem), in a slot other than avoid. */
static int map_mem(struct gen *g, int mem, int avoid)
{
	unsigned int free = ~gen_mapped_mask(g) & ALL_SLOTS(MMF_NR_MAPS);
	struct mmf_stmt s = { .id = MMF_MMAP };
	uint64_t n;
	int m;

	if (avoid >= 0)
		free &= ~(1u << avoid);
	m = gen_rand_slot(g->r, free, MMF_NR_MAPS);
	if (m == avoid)
		m = (m + 1 + mmf_rand_below(g->r, MMF_NR_MAPS - 1)) % MMF_NR_MAPS;
	s.args[0] = m;
	s.args[1] = mmf_gen_rand_offset(g->r, MMF_SLOT_PAGES);
	n = mmf_gen_rand_npages(g->r, MMF_SLOT_PAGES - s.args[1]);
	s.args[2] = MAX(n, mmf_gen_rand_npages(g->r, MMF_SLOT_PAGES - s.args[1]));
	s.args[3] = MMF_BACKING_ANON;
	s.args[4] = mmf_gen_set_value(&mmf_prot_set, "PROT_READ|PROT_WRITE");
	s.args[5] = mmf_gen_set_value(&mmf_share_set, mem == GEN_MEM_SHARED ? "MAP_SHARED" :
				      "MAP_PRIVATE");
	if (g->maps[m].mapped)
		s.args[6] = mmf_gen_set_value(&mmf_mmap_set, "MAP_FIXED");
	return mmf_gen_push(g, &s) ? m : -1;
}

int mmf_gen_mem_slot(struct gen *g, unsigned int mems, bool writable, int avoid)
{
	int m = mmf_gen_pick_mem(g, mems, writable, avoid);

	/* What a fork child maps is in no model: the child maps nothing first. */
	if (m >= 0 || g->in_fork || !(mems & (1u << GEN_MEM_ANON | 1u << GEN_MEM_SHARED)) ||
	    mmf_rand_oneof(g->r, 16))
		return m;
	return map_mem(g, mems & 1u << GEN_MEM_ANON ? GEN_MEM_ANON : GEN_MEM_SHARED, avoid);
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
	const uint64_t *a = s->args;
	const struct gen_slot *sl = &g->maps[a[0]];
	bool shared = a[5] != mmf_gen_set_value(&mmf_share_set, "MAP_PRIVATE");
	int mem = shared ? GEN_MEM_SHARED : GEN_MEM_ANON;

	/* Without MAP_FIXED a mapping in the way is EEXIST: it stays. */
	if (sl->mapped && !(a[6] & MMF_MAP_FIXED) && a[1] < sl->page + sl->npages &&
	    a[1] + a[2] > sl->page)
		return;
	if (a[3] != MMF_BACKING_ANON)
		mem = mmf_gen_file_mem(g, a[3] - 1, shared);
	map_set(g, a[0], a[1], a[2], false, mem, a[4]);
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
	mmf_gen_split(g, s);
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
	struct gen_slot src = g->maps[a[0]];

	if (!(a[6] & mmf_gen_set_value(&mmf_mremap_set, "MREMAP_DONTUNMAP")))
		unmap(g, a[0], a[1], a[2]);
	mmf_gen_split(g, s);
	/* A uffd without EVENT_REMAP loses a moved range's registration. */
	map_set(g, a[3], a[4], a[5], src.written, src.mem, src.prot);
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

/* The whole mapping takes the new protection; a part of it lowers what is sure. */
static void apply_mprotect(struct gen *g, const struct mmf_stmt *s)
{
	const uint64_t *a = s->args;
	struct gen_slot *sl = &g->maps[a[0]];

	mmf_gen_split(g, s);
	if (!sl->mapped || a[1] >= sl->page + sl->npages || a[1] + a[2] <= sl->page)
		return;
	if (a[1] <= sl->page && a[1] + a[2] >= sl->page + sl->npages)
		sl->prot = a[3];
	else
		sl->prot &= a[3];
}

MMF_BUILDER(mprotect, mmf_gen_default, .apply = apply_mprotect, MMF_BIASES(mprotect_biases),
	    .undo = { MMF_MPROTECT, 3, 75, "PROT_READ|PROT_WRITE" });

/* Generation keeps no seal: what a sealed range refuses later fails. */
MMF_BUILDER(mseal, mmf_gen_default);

/* The largest free part of slot m, outside its mapping. */
static void free_part(const struct gen *g, int m, uint64_t *start, uint64_t *len)
{
	const struct gen_slot *sl = &g->maps[m];
	uint64_t end = sl->page + sl->npages;

	*start = 0;
	*len = MMF_SLOT_PAGES;
	if (!sl->mapped)
		return;
	*len = sl->page;
	if (MMF_SLOT_PAGES - end > *len) {
		*start = end;
		*len = MMF_SLOT_PAGES - end;
	}
}

/*
 * A perf ring of 1 + 2^k pages (its control page, then data) in a free
 * part of a slot: the kernel maps it with MAP_FIXED_NOREPLACE. A second
 * ring of the same event must have the first one's size while that one
 * is mapped, so the program's rings share one.
 */
static void build_special_map(struct gen *g, struct mmf_stmt *s)
{
	uint64_t n = g->ring_pages, start, len;
	unsigned int fits = 0;
	int m;

	mmf_gen_args(g, s, 3);
	if (!n)
		n = mmf_rand_oneof(g->r, 8) ? 1 : 1 + (1u << mmf_rand_below(g->r, 10));
	for (int i = 0; i < MMF_NR_MAPS; i++) {
		free_part(g, i, &start, &len);
		fits |= (len >= n) << i;
	}
	/* Over a mapping now and then: EEXIST has its path too. */
	if (!fits || mmf_rand_oneof(g->r, 8)) {
		mmf_gen_pick_range(g, s, 0);
		return;
	}
	m = gen_rand_bit(g->r, fits);
	free_part(g, m, &start, &len);
	s->args[0] = m;
	s->args[1] = start + mmf_gen_rand_offset(g->r, len - n + 1);
	s->args[2] = n;
}

/* A ring in an empty slot is the slot's mapping; one beside a mapping is not tracked. */
static void apply_special_map(struct gen *g, const struct mmf_stmt *s)
{
	const uint64_t *a = s->args;
	const struct gen_slot *sl = &g->maps[a[0]];
	uint64_t n = a[2];

	if (a[1] + n > MMF_SLOT_PAGES ||
	    (sl->mapped && a[1] < sl->page + sl->npages && a[1] + n > sl->page))
		return;
	if (n == 1 || !((n - 1) & (n - 2)))
		g->ring_pages = n;
	if (!sl->mapped)
		map_set(g, a[0], a[1], n, false, GEN_MEM_OTHER,
			mmf_gen_set_value(&mmf_prot_set, "PROT_READ|PROT_WRITE"));
}

MMF_BUILDER(special_map, build_special_map, .apply = apply_special_map);
