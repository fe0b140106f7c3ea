/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Track C calls of the executor: memory cgroups, KSM and mTHP knobs
 * (cgknobs.c); shmem and other files, special mappings (files.c).
 */
#ifndef MMF_EXEC_CALLS_C_H
#define MMF_EXEC_CALLS_C_H

#include "exec/interp.h"

long run_cg_move(struct interp *in, const struct mmf_stmt *s, int si);
long run_cg_limit(struct interp *in, const struct mmf_stmt *s, int si);
long run_cg_reclaim(struct interp *in, const struct mmf_stmt *s, int si);
long run_prctl_merge(struct interp *in, const struct mmf_stmt *s, int si);
long run_ksm_wait(struct interp *in, const struct mmf_stmt *s, int si);
long run_thp_knob(struct interp *in, const struct mmf_stmt *s, int si);

long run_memfd_create(struct interp *in, const struct mmf_stmt *s, int si);
long run_memfd_secret(struct interp *in, const struct mmf_stmt *s, int si);
long run_devzero(struct interp *in, const struct mmf_stmt *s, int si);
long run_memfd_seal(struct interp *in, const struct mmf_stmt *s, int si);
long run_fallocate(struct interp *in, const struct mmf_stmt *s, int si);
long run_ftruncate(struct interp *in, const struct mmf_stmt *s, int si);
long run_pwrite(struct interp *in, const struct mmf_stmt *s, int si);
long run_pread(struct interp *in, const struct mmf_stmt *s, int si);
long run_special_map(struct interp *in, const struct mmf_stmt *s, int si);

/*
 * The runner's side: before a program, save the cgroup limits and knobs it
 * may change (only if it has a call that changes them); after it, write
 * them back, so that no program inherits another's.
 */
struct mmf_exec_saved {
	bool cg, knobs;
	char cgval[MMF_NR_CGROUPS][3][32];
	char knobval[MMF_NR_KNOBS][128];
};

void mmf_exec_save_c(const struct mmf_prog *p, const struct mmf_exec_opts *o,
		     struct mmf_exec_saved *sv);
void mmf_exec_restore_c(const struct mmf_exec_opts *o, const struct mmf_exec_saved *sv);

#endif
