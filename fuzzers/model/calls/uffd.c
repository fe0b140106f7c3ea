// SPDX-License-Identifier: GPL-2.0
/*
 * uffd: userfaultfd. The via argument is not a UAPI value: how the executor
 * gets its descriptor (userfaultfd(2) or /dev/userfaultfd). Features are
 * UFFDIO_API's; the event features make the handler thread (exec/uffd.c)
 * drain fork, remap, remove and unmap events.
 */
#include <string.h>

#include "model/builder.h"
#include "model/uapi.h"

MMF_FLAG_SET(mmf_uffd_via_set, "uffd_via", { "UFFD_SYSCALL", 0 }, { "UFFD_DEV", 1 });

MMF_FLAG_SET(mmf_uffd_features_set, "uffd_features",
	{ "UFFD_FEATURE_EVENT_FORK", 1 << 1 }, { "UFFD_FEATURE_EVENT_REMAP", 1 << 2 },
	{ "UFFD_FEATURE_EVENT_REMOVE", 1 << 3 }, { "UFFD_FEATURE_MISSING_SHMEM", 1 << 5 },
	{ "UFFD_FEATURE_EVENT_UNMAP", 1 << 6 }, { "UFFD_FEATURE_THREAD_ID", 1 << 8 },
	{ "UFFD_FEATURE_MINOR_SHMEM", 1 << 10 }, { "UFFD_FEATURE_WP_HUGETLBFS_SHMEM", 1 << 12 },
	{ "UFFD_FEATURE_WP_UNPOPULATED", 1 << 13 }, { "UFFD_FEATURE_POISON", 1 << 14 },
	{ "UFFD_FEATURE_WP_ASYNC", 1 << 15 }, { "UFFD_FEATURE_MOVE", 1 << 16 });

MMF_FLAG_SET(mmf_uffd_register_set, "uffd_register",
	{ "UFFDIO_REGISTER_MODE_MISSING", 0x1 }, { "UFFDIO_REGISTER_MODE_WP", 0x2 },
	{ "UFFDIO_REGISTER_MODE_MINOR", 0x4 });

MMF_FLAG_SET(mmf_uffd_copy_set, "uffd_copy",
	{ "UFFDIO_COPY_MODE_DONTWAKE", 0x1 }, { "UFFDIO_COPY_MODE_WP", 0x2 });

MMF_FLAG_SET(mmf_uffd_wp_set, "uffd_writeprotect",
	{ "UFFDIO_WRITEPROTECT_MODE_WP", 0x1 }, { "UFFDIO_WRITEPROTECT_MODE_DONTWAKE", 0x2 });

MMF_FLAG_SET(mmf_uffd_continue_set, "uffd_continue",
	{ "UFFDIO_CONTINUE_MODE_DONTWAKE", 0x1 }, { "UFFDIO_CONTINUE_MODE_WP", 0x2 });

/* ZEROPAGE and POISON have only DONTWAKE (bit 0). */
MMF_FLAG_SET(mmf_uffd_dontwake_set, "uffd_dontwake", { "UFFDIO_MODE_DONTWAKE", 0x1 });

MMF_FLAG_SET(mmf_uffd_move_set, "uffd_move",
	{ "UFFDIO_MOVE_MODE_DONTWAKE", 0x1 }, { "UFFDIO_MOVE_MODE_ALLOW_SRC_HOLES", 0x2 });

/* Values of the flag sets by name. */
static uint64_t feature(const char *names)
{
	return mmf_gen_set_value(&mmf_uffd_features_set, names);
}

static uint64_t mode(const char *names)
{
	return mmf_gen_set_value(&mmf_uffd_register_set, names);
}

/*
 * Whether the program's uffd has features: the one uffd_create made, or
 * the one the first uffd call makes (in a fork child too), which has all
 * the kernel has of those the calls below need.
 */
static bool has(const struct gen *g, uint64_t features)
{
	return g->in_fork || !g->uffd_created || (g->uffd_features & features) == features;
}

/* A uffd with features too, made first, mostly, when the program's lacks them. */
static void need(struct gen *g, uint64_t features)
{
	struct mmf_stmt s = { .id = MMF_UFFD_CREATE };

	if (has(g, features) || g->body >= 0 || mmf_rand_oneof(g->r, 8))
		return;
	s.args[0] = mmf_gen_set_value(&mmf_uffd_via_set, "UFFD_SYSCALL");
	s.args[1] = g->uffd_features | features;
	mmf_gen_push(g, &s);
}

/* The registration modes the memory of slot m takes (vma_can_userfault()). */
static uint64_t modes_of(const struct gen *g, int m)
{
	switch (g->maps[m].mem) {
	case GEN_MEM_ANON:
		return mode("UFFDIO_REGISTER_MODE_MISSING|UFFDIO_REGISTER_MODE_WP");
	case GEN_MEM_SHARED:
	case GEN_MEM_PRIVATE:
		return (has(g, feature("UFFD_FEATURE_MISSING_SHMEM")) ?
			mode("UFFDIO_REGISTER_MODE_MISSING") : 0) |
			(has(g, feature("UFFD_FEATURE_WP_HUGETLBFS_SHMEM")) ?
			 mode("UFFDIO_REGISTER_MODE_WP") : 0) |
			(has(g, feature("UFFD_FEATURE_MINOR_SHMEM")) ?
			 mode("UFFDIO_REGISTER_MODE_MINOR") : 0);
	}
	return 0;
}

static void apply_uffd_create(struct gen *g, const struct mmf_stmt *s)
{
	/* The old uffd is closed: its registrations go with it. */
	for (int i = 0; i < MMF_NR_MAPS; i++)
		g->maps[i].uffd_npages = 0;
	g->uffd_created = true;
	g->uffd_features = s->args[1];
}

static const struct mmf_bias create_biases[] = {
	{ &mmf_uffd_features_set, 70, { "UFFD_FEATURE_EVENT_FORK|UFFD_FEATURE_EVENT_REMAP|"
		"UFFD_FEATURE_EVENT_REMOVE|UFFD_FEATURE_EVENT_UNMAP|UFFD_FEATURE_MISSING_SHMEM|"
		"UFFD_FEATURE_WP_HUGETLBFS_SHMEM|UFFD_FEATURE_WP_UNPOPULATED",
		"UFFD_FEATURE_EVENT_FORK|UFFD_FEATURE_WP_UNPOPULATED",
		"UFFD_FEATURE_MISSING_SHMEM|UFFD_FEATURE_MINOR_SHMEM|UFFD_FEATURE_POISON|"
		"UFFD_FEATURE_MOVE", "" } },
};

MMF_BUILDER(uffd_create, mmf_gen_default, .apply = apply_uffd_create, MMF_BIASES(create_biases));

/*
 * A registration the kernel takes (inside the slot's mapping, in modes its
 * memory takes) is the slot's; one it refuses changes nothing.
 */
static void apply_uffd_register(struct gen *g, const struct mmf_stmt *s)
{
	const uint64_t *a = s->args;
	struct gen_slot *sl = &g->maps[a[0]];

	if (!sl->mapped || a[1] < sl->page || a[1] + a[2] > sl->page + sl->npages || !a[3] ||
	    a[3] & ~modes_of(g, a[0]))
		return;
	mmf_gen_split(g, s);
	sl->uffd_mode = a[3];
	sl->uffd_page = a[1];
	sl->uffd_npages = a[2];
}

/* WP with MISSING: the markers swapoff meets. */
static const struct mmf_bias register_biases[] = {
	{ &mmf_uffd_register_set, 85, { "UFFDIO_REGISTER_MODE_MISSING", "UFFDIO_REGISTER_MODE_WP",
		"UFFDIO_REGISTER_MODE_MISSING|UFFDIO_REGISTER_MODE_WP",
		"UFFDIO_REGISTER_MODE_MINOR" } },
};

MMF_BUILDER(uffd_register, mmf_gen_default, .apply = apply_uffd_register,
	    MMF_BIASES(register_biases), .undo = { MMF_UFFD_UNREGISTER, 3, 50, NULL });

static void apply_uffd_unregister(struct gen *g, const struct mmf_stmt *s)
{
	struct gen_slot *sl = &g->maps[s->args[0]];

	mmf_gen_cut(&sl->uffd_page, &sl->uffd_npages, s->args[1], s->args[2]);
	mmf_gen_split(g, s);
}

MMF_BUILDER(uffd_unregister, mmf_gen_default, .apply = apply_uffd_unregister);

/*
 * Args 0..2 of the ioctls on registered ranges: a part of a range
 * registered in one of modes, on memory of mems (writable if asked),
 * registered first (in one of modes) when there is none, inside one VMA
 * if asked (the filling ioctls work in one). The slot, or -1 when the
 * range is left as mmf_gen_default() drew it. A fork child has no uffd
 * until its first uffd call makes one: it registers first.
 */
static int registered(struct gen *g, struct mmf_stmt *s, uint64_t modes, unsigned int mems,
		      bool writable, bool one_vma)
{
	struct mmf_stmt reg = { .id = MMF_UFFD_REGISTER };
	unsigned int have = 0;
	int m;

	/* Now and then anywhere: unregistered pages have their errors too. */
	if (mmf_rand_oneof(g->r, 16))
		return -1;
	for (int i = 0; i < MMF_NR_MAPS && !g->in_fork; i++) {
		const struct gen_slot *sl = &g->maps[i];

		if (sl->mapped && sl->uffd_npages && sl->uffd_mode & modes && mems & 1u << sl->mem &&
		    (!writable || sl->prot & MMF_PROT_WRITE))
			have |= 1u << i;
	}
	if (have && !mmf_rand_oneof(g->r, 16)) {
		m = have & 1u << g->hot && mmf_rand_below(g->r, 2) ? g->hot :
			gen_rand_bit(g->r, have);
		reg.args[0] = m;
		reg.args[1] = g->maps[m].uffd_page;
		reg.args[2] = g->maps[m].uffd_npages;
	} else {
		m = mmf_gen_mem_slot(g, mems, writable, -1);
		modes &= m >= 0 ? modes_of(g, m) : 0;
		if (!modes)
			return -1;
		mmf_gen_range_in(g, &reg, 0, m);
		reg.args[3] = 1ull << gen_rand_bit(g->r, modes);
		if (!mmf_gen_push(g, &reg))
			return -1;
	}
	memcpy(s->args, reg.args, 3 * sizeof(s->args[0]));
	mmf_gen_sub_range(g, s->args);
	if (one_vma)
		mmf_gen_one_vma(g, s->args);
	return m;
}

/*
 * The filling ioctls take pages that are not there (EEXIST, also for a
 * swap entry): mostly drop them first, from the page tables of a private
 * mapping (also where it may be mlocked, half the time), from the file of
 * a shared one.
 */
static void zap(struct gen *g, const struct mmf_stmt *s, int m)
{
	struct mmf_stmt z = { .id = MMF_MADVISE };
	const char *advice = mmf_rand_below(g->r, 2) ? "MADV_DONTNEED" : "MADV_DONTNEED_LOCKED";

	if (m < 0 || mmf_rand_oneof(g->r, 8))
		return;
	memcpy(z.args, s->args, 3 * sizeof(z.args[0]));
	z.args[3] = mmf_gen_set_value(&mmf_madv_set, g->maps[m].mem == GEN_MEM_SHARED ?
				      "MADV_REMOVE" : advice);
	mmf_gen_push(g, &z);
}

/* Any registration lets the ctx fill; MODE_WP needs a WP one. */
static void build_uffd_copy(struct gen *g, struct mmf_stmt *s)
{
	uint64_t wp = mmf_gen_set_value(&mmf_uffd_copy_set, "UFFDIO_COPY_MODE_WP");
	int m;

	mmf_gen_default(g, s);
	m = registered(g, s, s->args[4] & wp ? mode("UFFDIO_REGISTER_MODE_WP") :
		       mode("UFFDIO_REGISTER_MODE_MISSING|UFFDIO_REGISTER_MODE_WP"),
		       GEN_MEMS_PLAIN, false, true);
	zap(g, s, m);
}

static const struct mmf_bias copy_biases[] = {
	{ &mmf_uffd_copy_set, 80, { "", "", "UFFDIO_COPY_MODE_WP" } },
};

MMF_BUILDER(uffd_copy, build_uffd_copy, MMF_BIASES(copy_biases));

static void build_uffd_fill(struct gen *g, struct mmf_stmt *s)
{
	int m;

	mmf_gen_default(g, s);
	if (s->id == MMF_UFFD_POISON)
		need(g, feature("UFFD_FEATURE_POISON"));
	m = registered(g, s, mode("UFFDIO_REGISTER_MODE_MISSING|UFFDIO_REGISTER_MODE_WP"),
		       GEN_MEMS_PLAIN, false, true);
	zap(g, s, m);
}

static const struct mmf_bias dontwake_biases[] = {
	{ &mmf_uffd_dontwake_set, 90, { "" } },
};

MMF_BUILDER(uffd_zeropage, build_uffd_fill, MMF_BIASES(dontwake_biases));

static void build_uffd_writeprotect(struct gen *g, struct mmf_stmt *s)
{
	mmf_gen_default(g, s);
	registered(g, s, mode("UFFDIO_REGISTER_MODE_WP"), GEN_MEMS_PLAIN, false, false);
}

static const struct mmf_bias wp_biases[] = {
	{ &mmf_uffd_wp_set, 85, { "UFFDIO_WRITEPROTECT_MODE_WP",
		"UFFDIO_WRITEPROTECT_MODE_WP", "" } },
};

/* The undo takes the protection away again. */
MMF_BUILDER(uffd_writeprotect, build_uffd_writeprotect, MMF_BIASES(wp_biases),
	    .undo = { MMF_UFFD_WRITEPROTECT, 3, 50, "" });

/*
 * CONTINUE maps a page the file has and the page tables lack (a minor
 * fault): on a MINOR range of shared shmem, mostly written first (the page
 * cache gets the pages), then zapped from the page tables.
 */
static void build_uffd_continue(struct gen *g, struct mmf_stmt *s)
{
	struct mmf_stmt w = { .id = MMF_WRITE }, z = { .id = MMF_MADVISE };
	int m;

	mmf_gen_default(g, s);
	need(g, feature("UFFD_FEATURE_MINOR_SHMEM"));
	m = registered(g, s, mode("UFFDIO_REGISTER_MODE_MINOR"), 1u << GEN_MEM_SHARED, false,
		       true);
	if (m < 0)
		return;
	memcpy(w.args, s->args, 3 * sizeof(w.args[0]));
	memcpy(z.args, s->args, 3 * sizeof(z.args[0]));
	if (!g->maps[m].written || mmf_rand_below(g->r, 2)) {
		mmf_gen_args(g, &w, 3);
		mmf_gen_push(g, &w);
	}
	z.args[3] = mmf_gen_set_value(&mmf_madv_set, "MADV_DONTNEED");
	mmf_gen_push(g, &z);
}

static const struct mmf_bias continue_biases[] = {
	{ &mmf_uffd_continue_set, 90, { "" } },
};

MMF_BUILDER(uffd_continue, build_uffd_continue, MMF_BIASES(continue_biases));
MMF_BUILDER(uffd_poison, build_uffd_fill, MMF_BIASES(dontwake_biases));

/*
 * MOVE takes present, exclusive pages of a writable private anonymous
 * mapping to the missing pages of a registered one (both alike, neither
 * shared): the source in another slot, mostly written first.
 */
static void build_uffd_move(struct gen *g, struct mmf_stmt *s)
{
	struct mmf_stmt w = { .id = MMF_WRITE };
	const struct gen_slot *src;
	uint64_t src_range[3];
	int m, sm;

	mmf_gen_default(g, s);
	need(g, feature("UFFD_FEATURE_MOVE"));
	m = registered(g, s, mode("UFFDIO_REGISTER_MODE_MISSING|UFFDIO_REGISTER_MODE_WP"),
		       1u << GEN_MEM_ANON, true, true);
	sm = m < 0 ? -1 : mmf_gen_mem_slot(g, 1u << GEN_MEM_ANON, true, m);
	if (sm < 0)
		return;
	src = &g->maps[sm];
	s->args[2] = MIN(s->args[2], src->npages);
	s->args[3] = sm;
	s->args[4] = src->page + mmf_gen_rand_offset(g->r, src->npages - s->args[2] + 1);
	src_range[0] = sm;
	src_range[1] = s->args[4];
	src_range[2] = s->args[2];
	/* The source lies in one VMA too: the count fits both. */
	mmf_gen_one_vma(g, src_range);
	s->args[2] = src_range[2];
	if (!src->written || !mmf_rand_oneof(g->r, 4)) {
		memcpy(w.args, &s->args[3], 2 * sizeof(w.args[0]));
		w.args[2] = s->args[2];
		mmf_gen_args(g, &w, 3);
		mmf_gen_push(g, &w);
	}
	zap(g, s, m);
}

static const struct mmf_bias move_biases[] = {
	{ &mmf_uffd_move_set, 80, { "", "UFFDIO_MOVE_MODE_ALLOW_SRC_HOLES" } },
};

MMF_BUILDER(uffd_move, build_uffd_move, MMF_BIASES(move_biases));
