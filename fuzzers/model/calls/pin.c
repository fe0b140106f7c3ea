// SPDX-License-Identifier: GPL-2.0
/* pin: vmsplice, io_uring fixed buffers, O_DIRECT, process_vm. */
#include "model/builder.h"

MMF_BUILD_DEFAULT(vmsplice);
MMF_BUILD_DEFAULT(pipe_read);
MMF_BUILD_DEFAULT(uring_register);

/* Calls between a file and memory: a made file, a page inside it. */
static void build_file_io(struct gen *g, struct mmf_stmt *s)
{
	int f;

	mmf_gen_default(g, s);
	f = gen_rand_slot(g->r, gen_made_files(g), MMF_NR_FILES);
	s->args[3] = f;
	if (g->files[f])
		s->args[4] = mmf_gen_rand_offset(g->r, g->files[f]);
}

MMF_BUILDER(uring_read_fixed, build_file_io);
MMF_BUILDER(uring_write_fixed, build_file_io);
MMF_BUILDER(dio_file, mmf_gen_pick_file, .apply = mmf_gen_file_made);
MMF_BUILDER(dio_read, build_file_io);
MMF_BUILDER(dio_write, build_file_io);

/* process_vm_*v: a target and a range of it. */
static void build_pvm(struct gen *g, struct mmf_stmt *s)
{
	mmf_gen_default(g, s);
	s->args[3] = mmf_gen_rand_target(g);
	s->args[4] = mmf_gen_pick_slot(g);
}

MMF_BUILDER(process_vm_readv, build_pvm);
MMF_BUILDER(process_vm_writev, build_pvm);
