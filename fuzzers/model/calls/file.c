// SPDX-License-Identifier: GPL-2.0
/* file: the file slots, shmem and special files. */
#include "model/builder.h"

MMF_FLAG_SET(mmf_memfd_set, "memfd_create",
	{ "MFD_ALLOW_SEALING", 0x2 }, { "MFD_HUGETLB", 0x4 },
	{ "MFD_NOEXEC_SEAL", 0x8 }, { "MFD_EXEC", 0x10 });

MMF_FLAG_SET(mmf_seal_set, "seals",
	{ "F_SEAL_SEAL", 0x1 }, { "F_SEAL_SHRINK", 0x2 }, { "F_SEAL_GROW", 0x4 },
	{ "F_SEAL_WRITE", 0x8 }, { "F_SEAL_FUTURE_WRITE", 0x10 });

/*
 * FALLOC_FL_* modes: PUNCH_HOLE is PUNCH_HOLE|KEEP_SIZE (the kernel takes no
 * hole without it); shmem allocates and punches, ZERO_RANGE is EOPNOTSUPP.
 */
MMF_FLAG_SET(mmf_falloc_set, "fallocate",
	{ "PUNCH_HOLE", 0x3 }, { "KEEP_SIZE", 0x1 }, { "ALLOCATE", 0x0 },
	{ "ZERO_RANGE", 0x10 });

void mmf_gen_make_file(struct gen *g, int f)
{
	struct mmf_stmt s = { .id = mmf_rand_oneof(g->r, 3) ? MMF_TMPFILE : MMF_MEMFD };

	s.args[0] = f;
	s.args[1] = mmf_gen_rand_npages(g->r, MMF_SLOT_PAGES);
	mmf_gen_push(g, &s);
}

void mmf_gen_pick_file(struct gen *g, struct mmf_stmt *s)
{
	unsigned int unmade = ~gen_made_files(g) & ALL_SLOTS(MMF_NR_FILES);

	s->args[0] = gen_rand_slot(g->r, mmf_rand_oneof(g->r, 4) ? 0 : unmade, MMF_NR_FILES);
	s->args[1] = mmf_gen_rand_npages(g->r, MMF_SLOT_PAGES);
}

void mmf_gen_file_set(struct gen *g, int f, uint64_t npages, int kind)
{
	g->files[f] = npages;
	g->file_kinds[f] = kind;
	g->file_seals[f] = 0;
}

int mmf_gen_file_mem(const struct gen *g, int f, bool shared)
{
	switch (g->file_kinds[f]) {
	case GEN_FILE_MEMFD:
	case GEN_FILE_SEALABLE:
	case GEN_FILE_TMPFILE:
		return shared ? GEN_MEM_SHARED : GEN_MEM_PRIVATE;
	case GEN_FILE_DEVZERO:
		/* MAP_PRIVATE of /dev/zero is anonymous memory, MAP_SHARED a shmem object. */
		return shared ? GEN_MEM_SHARED : GEN_MEM_ANON;
	}
	return GEN_MEM_OTHER;
}

/* The calls that make a file of each kind mmf_gen_file_of() may make. */
static const struct {
	int kind, id;
} makers[] = {
	{ GEN_FILE_MEMFD, MMF_MEMFD }, { GEN_FILE_TMPFILE, MMF_TMPFILE },
	{ GEN_FILE_SEALABLE, MMF_MEMFD_CREATE }, { GEN_FILE_DIO, MMF_DIO_FILE },
};

static void make_file_of(struct gen *g, int f, unsigned int kinds)
{
	struct mmf_stmt s = { 0 };
	int ids[ARRAY_SIZE(makers)], n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(makers); i++)
		if (kinds & 1u << makers[i].kind)
			ids[n++] = makers[i].id;
	if (!n)
		return;
	s.id = ids[mmf_rand_below(g->r, n)];
	s.args[0] = f;
	s.args[1] = mmf_gen_rand_npages(g->r, MMF_SLOT_PAGES);
	if (s.id == MMF_MEMFD_CREATE)
		s.args[2] = mmf_gen_set_value(&mmf_memfd_set, "MFD_ALLOW_SEALING");
	mmf_gen_push(g, &s);
}

int mmf_gen_file_of(struct gen *g, unsigned int kinds, bool writable)
{
	static const char stops[] = "F_SEAL_SHRINK|F_SEAL_GROW|F_SEAL_WRITE|F_SEAL_FUTURE_WRITE";
	uint64_t stop = mmf_gen_set_value(&mmf_seal_set, stops);
	unsigned int have = 0;
	int f;

	for (f = 0; f < MMF_NR_FILES; f++)
		if (g->files[f] && kinds & 1u << g->file_kinds[f] &&
		    !(writable && g->file_seals[f] & stop))
			have |= 1u << f;
	if (have && !mmf_rand_oneof(g->r, 16))
		return gen_rand_bit(g->r, have);
	/* Now and then any slot: a call on a file that is not there fails, as it must. */
	if (mmf_rand_oneof(g->r, 8))
		return have ? gen_rand_bit(g->r, have) : (int)mmf_rand_below(g->r, MMF_NR_FILES);
	f = gen_rand_slot(g->r, ~gen_made_files(g) & ALL_SLOTS(MMF_NR_FILES), MMF_NR_FILES);
	make_file_of(g, f, kinds);
	return f;
}

static void apply_memfd(struct gen *g, const struct mmf_stmt *s)
{
	mmf_gen_file_set(g, s->args[0], s->args[1], GEN_FILE_MEMFD);
}

static void apply_tmpfile(struct gen *g, const struct mmf_stmt *s)
{
	mmf_gen_file_set(g, s->args[0], s->args[1], GEN_FILE_TMPFILE);
}

MMF_BUILDER(memfd, mmf_gen_pick_file, .apply = apply_memfd);
MMF_BUILDER(tmpfile, mmf_gen_pick_file, .apply = apply_tmpfile);

static void build_memfd_create(struct gen *g, struct mmf_stmt *s)
{
	mmf_gen_pick_file(g, s);
	mmf_gen_args(g, s, 2);
}

/* MFD_NOEXEC_SEAL allows sealing too; with MFD_EXEC it is EINVAL, and the slot stays. */
static void apply_memfd_create(struct gen *g, const struct mmf_stmt *s)
{
	const struct mmf_flag_set *set = &mmf_memfd_set;
	uint64_t fl = s->args[2], exec = mmf_gen_set_value(set, "MFD_EXEC|MFD_NOEXEC_SEAL");
	int kind = GEN_FILE_MEMFD;

	if ((fl & exec) == exec)
		return;
	if (fl & mmf_gen_set_value(set, "MFD_HUGETLB"))
		kind = GEN_FILE_HUGETLB;
	else if (fl & mmf_gen_set_value(set, "MFD_ALLOW_SEALING|MFD_NOEXEC_SEAL"))
		kind = GEN_FILE_SEALABLE;
	mmf_gen_file_set(g, s->args[0], s->args[1], kind);
}

MMF_BUILDER(memfd_create, build_memfd_create, .apply = apply_memfd_create);

static void apply_memfd_secret(struct gen *g, const struct mmf_stmt *s)
{
	mmf_gen_file_set(g, s->args[0], s->args[1], GEN_FILE_SECRET);
}

MMF_BUILDER(memfd_secret, mmf_gen_pick_file, .apply = apply_memfd_secret);

/* /dev/zero has no size: a mapping of it may fill the slot. */
static void apply_devzero(struct gen *g, const struct mmf_stmt *s)
{
	mmf_gen_file_set(g, s->args[0], MMF_SLOT_PAGES, GEN_FILE_DEVZERO);
}

MMF_BUILDER(devzero, mmf_gen_default, .apply = apply_devzero);

static void build_memfd_seal(struct gen *g, struct mmf_stmt *s)
{
	mmf_gen_args(g, s, 1);
	s->args[0] = mmf_gen_file_of(g, 1u << GEN_FILE_SEALABLE, false);
}

/* F_SEAL_SEAL makes it a memfd like the others, which take no more seals. */
static void apply_memfd_seal(struct gen *g, const struct mmf_stmt *s)
{
	int f = s->args[0];

	if (g->file_kinds[f] != GEN_FILE_SEALABLE)
		return;
	g->file_seals[f] |= s->args[1];
	if (s->args[1] & mmf_gen_set_value(&mmf_seal_set, "F_SEAL_SEAL"))
		g->file_kinds[f] = GEN_FILE_MEMFD;
}

MMF_BUILDER(memfd_seal, build_memfd_seal, .apply = apply_memfd_seal);

/* Pages of a file: mostly inside it, args at (page) and at + 1 (npages). */
static void file_range(struct gen *g, struct mmf_stmt *s, int at)
{
	uint64_t size = g->files[s->args[0]];

	if (!size || mmf_rand_oneof(g->r, 8))
		return;
	s->args[at] = mmf_gen_rand_offset(g->r, size);
	s->args[at + 1] = mmf_gen_rand_npages(g->r, size - s->args[at]);
}

/* Calls through a file's descriptor: what it takes, and where in it. */
static void build_fd_call(struct gen *g, struct mmf_stmt *s, unsigned int kinds, bool writes)
{
	mmf_gen_args(g, s, 1);
	s->args[0] = mmf_gen_file_of(g, kinds, writes);
	file_range(g, s, 1);
}

/* shmem allocates and punches holes; a block device's file zeroes ranges too. */
static void build_fallocate(struct gen *g, struct mmf_stmt *s)
{
	build_fd_call(g, s, GEN_FILES_SHMEM | 1u << GEN_FILE_DIO, true);
}

MMF_BUILDER(fallocate, build_fallocate);

static void build_ftruncate(struct gen *g, struct mmf_stmt *s)
{
	mmf_gen_args(g, s, 1);
	s->args[0] = mmf_gen_file_of(g, GEN_FILES_SHMEM | 1u << GEN_FILE_DIO |
				     1u << GEN_FILE_HUGETLB, true);
}

static void apply_ftruncate(struct gen *g, const struct mmf_stmt *s)
{
	if (g->files[s->args[0]] && g->file_kinds[s->args[0]] != GEN_FILE_DEVZERO)
		g->files[s->args[0]] = s->args[1];
}

MMF_BUILDER(ftruncate, build_ftruncate, .apply = apply_ftruncate);

static void build_pwrite(struct gen *g, struct mmf_stmt *s)
{
	build_fd_call(g, s, GEN_FILES_WRITE, true);
}

MMF_BUILDER(pwrite, build_pwrite);

static void build_pread(struct gen *g, struct mmf_stmt *s)
{
	build_fd_call(g, s, GEN_FILES_READ, false);
}

MMF_BUILDER(pread, build_pread);
