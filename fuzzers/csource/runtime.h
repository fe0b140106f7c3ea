/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runtime a C reproducer carries: the text of runtime/NAME.c as
 * mmf_rt_NAME, made at build time (the Makefile). Every reproducer has
 * head, common, arena and main, and done when it has calls; the others
 * come with the calls that use them (the rows of the emitters).
 */
#ifndef MMF_CSOURCE_RUNTIME_H
#define MMF_CSOURCE_RUNTIME_H

/* Headers, sizes, the statement and expectation tables' types. */
extern const char mmf_rt_head[];
/* Globals, arena addressing, output, the fault handler, join. */
extern const char mmf_rt_common[];
/* arena_init(), with a line MMF_ARENA_LAYOUTS where the file gets the
 * layouts of model/arena.h.
 */
extern const char mmf_rt_arena[];
/* done(): the trace and the divergence check after each call. */
extern const char mmf_rt_done[];
/* main(): options, the arena, the nonce, prog(). */
extern const char mmf_rt_main[];

/* The access calls: a fault-guarded loop, write's fill, read's check. */
extern const char mmf_rt_guarded[], mmf_rt_fill[], mmf_rt_verify[], mmf_rt_mincore[];
/* The map and advise calls. */
extern const char mmf_rt_mmap[], mmf_rt_mremap[], mmf_rt_pmadvise[], mmf_rt_pmadvise_vec[];
/* A new file in a file slot. */
extern const char mmf_rt_new_file[];
/* The cgroup, file, special mapping and KSM calls' helpers; kept: the
 * knobs and limits written back at exit (after helpers).
 */
extern const char mmf_rt_helpers[], mmf_rt_kept[];
/* The pin calls: the process's pipes and ring (pins_own first). */
extern const char mmf_rt_pins_own[], mmf_rt_pipe[], mmf_rt_uring[], mmf_rt_dio[],
	mmf_rt_pvm[];
/* userfaultfd: the uffd, its handler thread, the ioctls. */
extern const char mmf_rt_uffd[];
/* Placement: a child's pid (target, before move and migrate). */
extern const char mmf_rt_target[], mmf_rt_mbind[], mmf_rt_move[], mmf_rt_migrate[],
	mmf_rt_compact[];
/* The blocks. */
extern const char mmf_rt_fork[], mmf_rt_thread[];
/* A racing group: util/racesync.h's barrier, pinning and spin, and its rounds. */
extern const char mmf_rt_racesync[], mmf_rt_race[];

#endif
