/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runtime a C reproducer carries: the text of csource/runtime/NAME.c
 * (what only a reproducer does: its arena, checks, trace, blocks) and of
 * runtime/NAME.h (the calls' code, which the executor compiles too) as
 * mmf_rt_NAME, made at build time (the Makefile). Every reproducer has
 * head, base, common, arena and main, and done when it has calls; the
 * others come with the calls that use them (the rows of the emitters).
 */
#ifndef MMF_CSOURCE_RUNTIME_H
#define MMF_CSOURCE_RUNTIME_H

/* Headers, sizes, the statement and expectation tables' types. */
extern const char mmf_rt_head[];
/* What the calls' code shares (runtime/base.h). */
extern const char mmf_rt_base[];
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

/* The calls' code, a family each (runtime/NAME.h). */
extern const char mmf_rt_access[], mmf_rt_advise[], mmf_rt_cgroup[], mmf_rt_file[], mmf_rt_map[], mmf_rt_perf[],
	mmf_rt_pin[], mmf_rt_place[], mmf_rt_swap[], mmf_rt_tune[], mmf_rt_uffd[];

/* The access calls: write's fill, read's check. */
extern const char mmf_rt_fill[], mmf_rt_verify[];
/* rt_mremap()'s arena index. */
extern const char mmf_rt_mremap[];
/* What the reproducer gives the calls: cgroup dirs, pwrite's words;
 * special_map's perf event; kept: the knobs and limits written back at exit.
 */
extern const char mmf_rt_helpers[], mmf_rt_special[], mmf_rt_kept[];
/* The pin calls' pipes and ring. */
extern const char mmf_rt_pins[];
/* userfaultfd: the process's uffd, uffd_copy's source words. */
extern const char mmf_rt_uffd_own[];
/* The blocks. */
extern const char mmf_rt_fork[], mmf_rt_thread[];
/* A racing group: runtime/racesync.h's barrier, pinning and spin, and its rounds. */
extern const char mmf_rt_racesync[], mmf_rt_race[];

#endif
