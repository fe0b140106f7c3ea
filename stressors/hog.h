/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload of 'mmfuzz stress' when no fuzzer runs: a process in the
 * fuzzing cgroup that keeps touching its anonymous memory, half of it
 * random words (nothing for zram to squash), half identical pages marked
 * MADV_MERGEABLE (for KSM). It gives the stressors something to act on.
 */
#ifndef MMF_STRESS_HOG_H
#define MMF_STRESS_HOG_H

#include <stdint.h>
#include <sys/types.h>

struct mmf_cgroup;

/* Start it (in cg, if not NULL); its pid, or -errno. It dies with us. */
pid_t mmf_hog_start(struct mmf_cgroup *cg, uint64_t bytes);
void mmf_hog_stop(pid_t pid);

#endif
