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

void mmf_gen_file_made(struct gen *g, const struct mmf_stmt *s)
{
	g->files[s->args[0]] = s->args[1];
}

MMF_BUILDER(memfd, mmf_gen_pick_file, .apply = mmf_gen_file_made);
MMF_BUILDER(tmpfile, mmf_gen_pick_file, .apply = mmf_gen_file_made);

static void build_memfd_create(struct gen *g, struct mmf_stmt *s)
{
	mmf_gen_pick_file(g, s);
	mmf_gen_args(g, s, 2);
}

MMF_BUILDER(memfd_create, build_memfd_create, .apply = mmf_gen_file_made);
MMF_BUILDER(memfd_secret, mmf_gen_pick_file, .apply = mmf_gen_file_made);

/* /dev/zero has no size: a mapping of it may fill the slot. */
static void apply_devzero(struct gen *g, const struct mmf_stmt *s)
{
	g->files[s->args[0]] = MMF_SLOT_PAGES;
}

MMF_BUILDER(devzero, mmf_gen_default, .apply = apply_devzero);
MMF_BUILD_DEFAULT(memfd_seal);
MMF_BUILD_DEFAULT(fallocate);
MMF_BUILD_DEFAULT(ftruncate);
MMF_BUILD_DEFAULT(pwrite);
MMF_BUILD_DEFAULT(pread);
