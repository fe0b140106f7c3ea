// SPDX-License-Identifier: GPL-2.0
/* pin: vmsplice, io_uring fixed buffers, O_DIRECT, process_vm. */
#include <string.h>

#include "model/builder.h"
#include "model/uapi.h"

MMF_BUILD_DEFAULT(vmsplice);
MMF_BUILD_DEFAULT(pipe_read);

/* A long-term pin for writing: writable anonymous or shmem pages. */
static bool pinnable(const struct gen *g, const uint64_t *range)
{
	const struct gen_slot *sl = &g->maps[range[0]];

	return sl->mapped && GEN_MEMS_PLAIN & 1u << sl->mem && sl->prot & MMF_PROT_WRITE &&
		range[1] >= sl->page && range[1] + range[2] <= sl->page + sl->npages;
}

/* Registering unregisters the old buffer first: a failure leaves none. */
static void apply_uring_register(struct gen *g, const struct mmf_stmt *s)
{
	memset(g->uring, 0, sizeof(g->uring));
	if (pinnable(g, s->args))
		memcpy(g->uring, s->args, sizeof(g->uring));
}

MMF_BUILDER(uring_register, mmf_gen_default, .apply = apply_uring_register);

/* Files whose data O_DIRECT moves: not a memfd's (it refuses the flag). */
#define DIO_FILES	(1u << GEN_FILE_DIO | 1u << GEN_FILE_TMPFILE)

/* Args 3 and 4 of a call between memory and a file: a file of kinds, a page inside it. */
static void file_io(struct gen *g, struct mmf_stmt *s, unsigned int kinds, bool to_file)
{
	int f = mmf_gen_file_of(g, kinds, to_file);

	s->args[3] = f;
	s->args[4] = mmf_gen_rand_offset(g->r, g->files[f] ? g->files[f] : MMF_SLOT_PAGES);
}

/*
 * The ring's buffer into range (map, page, npages), registered first when
 * there is none; false when none can be. A fork child has a ring of its
 * own, with no buffer until it registers one.
 */
static bool fixed_buffer(struct gen *g, uint64_t *range)
{
	struct mmf_stmt reg = { .id = MMF_URING_REGISTER };
	int m;

	if (g->uring[2] && !g->in_fork) {
		memcpy(range, g->uring, sizeof(g->uring));
		return true;
	}
	m = mmf_gen_mem_slot(g, GEN_MEMS_PLAIN, true, -1);
	if (m < 0)
		return false;
	mmf_gen_range_in(g, &reg, 0, m);
	if (!mmf_gen_push(g, &reg))
		return false;
	memcpy(range, reg.args, sizeof(g->uring));
	return true;
}

/* READ_FIXED and WRITE_FIXED work inside the ring's buffer: on a part of it. */
static void build_uring_fixed(struct gen *g, struct mmf_stmt *s)
{
	bool to_file = s->id == MMF_URING_WRITE_FIXED;

	mmf_gen_default(g, s);
	if (fixed_buffer(g, s->args))
		mmf_gen_sub_range(g, s->args);
	file_io(g, s, to_file ? GEN_FILES_WRITE : GEN_FILES_READ, to_file);
}

MMF_BUILDER(uring_read_fixed, build_uring_fixed);
MMF_BUILDER(uring_write_fixed, build_uring_fixed);

static void apply_dio_file(struct gen *g, const struct mmf_stmt *s)
{
	mmf_gen_file_set(g, s->args[0], s->args[1], GEN_FILE_DIO);
}

MMF_BUILDER(dio_file, mmf_gen_pick_file, .apply = apply_dio_file);

/* O_DIRECT between a range (writable for a read) and a file that takes it. */
static void build_dio(struct gen *g, struct mmf_stmt *s)
{
	bool to_file = s->id == MMF_DIO_WRITE;
	int m = mmf_gen_mem_slot(g, GEN_MEMS_PLAIN, !to_file, -1);

	mmf_gen_default(g, s);
	if (m >= 0)
		mmf_gen_range_in(g, s, 0, m);
	file_io(g, s, DIO_FILES, to_file);
}

MMF_BUILDER(dio_read, build_dio);
MMF_BUILDER(dio_write, build_dio);

/*
 * process_vm_*v: a range here and one as large in a mapping of the target
 * (a child's are the parent's of its fork), the one written to writable.
 */
static void build_pvm(struct gen *g, struct mmf_stmt *s)
{
	bool to_remote = s->id == MMF_PROCESS_VM_WRITEV;
	int m = mmf_gen_mem_slot(g, GEN_MEMS_PLAIN, !to_remote, -1), rm;
	const struct gen_slot *rsl;

	mmf_gen_default(g, s);
	if (m >= 0)
		mmf_gen_range_in(g, s, 0, m);
	s->args[3] = mmf_gen_rand_target(g);
	rm = mmf_gen_pick_mem(g, GEN_MEMS_PLAIN, to_remote, -1);
	if (rm < 0 || mmf_rand_oneof(g->r, 16)) {
		s->args[4] = mmf_gen_pick_slot(g);
		return;
	}
	rsl = &g->maps[rm];
	s->args[2] = MIN(s->args[2], rsl->npages);
	s->args[4] = rm;
	s->args[5] = rsl->page + mmf_gen_rand_offset(g->r, rsl->npages - s->args[2] + 1);
}

MMF_BUILDER(process_vm_readv, build_pvm);
MMF_BUILDER(process_vm_writev, build_pvm);
