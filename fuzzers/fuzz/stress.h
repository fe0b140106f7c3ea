/* SPDX-License-Identifier: GPL-2.0 */
/* Stressors beside the fuzzer, and 'mmfuzz stress' on its own. */
#ifndef MMF_FUZZ_STRESS_H
#define MMF_FUZZ_STRESS_H

#include <stdint.h>

#include "fuzz/env.h"
#include "stressors/stressor.h"

/* The stressors' target: env's journal, cgroup and swap devices; reports to OUT/crashes. */
void mmf_stress_target_of(struct mmf_env *env, const char *out, struct mmf_stress_target *t);

struct mmf_stress_cmd_opts {
	struct mmf_stress_sel sel;
	struct mmf_env_opts env;
	int64_t duration_ms;
	const char *out;
	uint64_t seed;
	uint64_t hog_bytes;	/* the workload in the cgroup, 0: none */
};

/*
 * Set up the environment, start the workload and the stressors, run for the
 * duration (or until SIGINT/SIGTERM), print the summary, undo everything.
 * 0, 1 when a stressor reported a finding, or -1 with a message printed.
 */
int mmf_stress_standalone(const struct mmf_stress_cmd_opts *o);

#endif
