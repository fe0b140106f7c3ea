/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cgroup and sysfs files programs change (the cg_* and tune calls),
 * the runner's side: before a program, save the cgroup limits and knobs it
 * may change (only if it has a call that changes them); after it, write
 * them back, so that no program inherits another's.
 */
#ifndef MMF_EXEC_KNOBS_H
#define MMF_EXEC_KNOBS_H

#include <stdbool.h>
#include <stddef.h>

#include "exec/exec.h"

struct mmf_exec_saved {
	bool cg, knobs;
	char cgval[MMF_NR_CGROUPS][3][32];
	char knobval[MMF_NR_KNOBS][128];
};

/* Save into a zeroed sv / restore: the cgroup limits (calls/cgroup.c). */
void mmf_cg_save(const struct mmf_prog *p, const struct mmf_exec_opts *o,
		 struct mmf_exec_saved *sv);
void mmf_cg_restore(const struct mmf_exec_opts *o, const struct mmf_exec_saved *sv);
/* The same for the THP knobs (calls/tune.c). */
void mmf_knobs_save(const struct mmf_prog *p, const struct mmf_exec_opts *o,
		    struct mmf_exec_saved *sv);
void mmf_knobs_restore(const struct mmf_exec_opts *o, const struct mmf_exec_saved *sv);

#endif
