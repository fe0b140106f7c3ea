/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The native run's environment: swap devices of our own at different
 * priorities and a memory cgroup sized to force reclaim, all journaled so
 * that they are removed at the end, or by 'mmfuzz cleanup' after a kill.
 * Made by the stressors' code (stressors/swapset.h, stressors/memcg.h),
 * which then cycle and squeeze the same devices and cgroup.
 */
#ifndef MMF_ENV_H
#define MMF_ENV_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/prog.h"
#include "stressors/swapset.h"

struct mmf_env_opts {
	const char *swapdir;	/* where swap files go (NULL: /var/tmp) */
	uint64_t swap_bytes;	/* per device */
	int nr_swapfiles;
	bool zram;		/* add a zram device where the kernel has it */
	bool loop;		/* add a loop device over a file in swapdir */
	/* Use these swap devices instead of making any (a guest's init made
	 * them): the user's explicit choice, never removed.
	 */
	const char *use_swaps[MMF_NR_SWAPS];
	int64_t cg_limit;	/* memory cgroup limit, 0: no cgroup */
};

struct mmf_env {
	struct mmf_journal *j;
	struct mmf_cgroup *cg;
	int64_t cg_limit;
	struct mmf_swapset set;	/* every swap device of the run */
	int nr_swaps;		/* the first ones, which programs name s0.. */
	const char *swaps[MMF_NR_SWAPS];
	char procs[PATH_MAX];	/* the cgroup's cgroup.procs, "" without one */
	/* env_shared.c: sibling memory cgroups of cg, the directories
	 * of all of them (cg first), and the journaled mTHP knobs.
	 */
	struct mmf_cgroup *sibs[MMF_NR_CGROUPS - 1];
	char cgdirs[MMF_NR_CGROUPS][PATH_MAX];
	char knobs[MMF_NR_KNOBS][PATH_MAX];
};

extern const struct mmf_env_opts mmf_env_defaults;

/* Set up; on failure undo what was made and return -1 with a message. */
int mmf_env_setup(const struct mmf_env_opts *o, struct mmf_env *env, char *err, size_t n);
/*
 * env_shared.c: sibling cgroups with cg's limits, the mTHP knobs and
 * ksmd journaled (ksmd running), so that programs may move between
 * cgroups and write the knobs; always succeeds, warning about what it
 * could not make. Teardown removes the siblings; the journal the rest.
 */
struct mmf_exec_opts;
void mmf_env_setup_shared(const struct mmf_env_opts *o, struct mmf_env *env);
void mmf_env_teardown_shared(struct mmf_env *env);
/* The exec options of what the environment made: its swap devices, the
 * cgroup the programs run in, the sibling cgroups and the knobs.
 */
void mmf_env_exec_opts(const struct mmf_env *env, struct mmf_exec_opts *eo);
/* Swap devices a program swapped off go back on, at their priority. */
void mmf_env_restore_swaps(struct mmf_env *env);
/* Remove everything; 0 or -1 if something had to be left for cleanup. */
int mmf_env_teardown(struct mmf_env *env);

#endif
