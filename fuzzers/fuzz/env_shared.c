// SPDX-License-Identifier: GPL-2.0
/*
 * What the cgroup and knob calls need from the environment: sibling memory cgroups
 * to move between, and the global knobs they write (mTHP sizes, shmem
 * huge pages, ksmd) journaled before any program runs. Journaling once
 * here, not per write, is what lets the executor, which cannot reach the
 * journal, write them: a kill at any point leaves a record that restores
 * the value from before the run.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "exec/exec.h"
#include "fuzz/env.h"
#include "sys/cgroup.h"
#include "sys/sysfs.h"
#include "util/util.h"

#define THP_DIR		"/sys/kernel/mm/transparent_hugepage/"
#define KSM_DIR		"/sys/kernel/mm/ksm/"

static void siblings(const struct mmf_env_opts *o, struct mmf_env *env)
{
	static const char *const names[] = { "sib1", "sib2" };

	_Static_assert(ARRAY_SIZE(names) == MMF_NR_CGROUPS - 1, "one name per sibling");
	snprintf(env->cgdirs[0], sizeof(env->cgdirs[0]), "%s", mmf_cg_path(env->cg));
	for (int i = 0; i < MMF_NR_CGROUPS - 1; i++) {
		struct mmf_cgroup *cg;

		if (mmf_cg_create(env->j, names[i], &cg) < 0) {
			mmf_warnx_("sibling memory cgroup: %s", mmf_sys_err());
			return;
		}
		env->sibs[i] = cg;
		if (mmf_cg_set_limit(cg, o->cg_limit, o->cg_limit * 3 / 4, -1) < 0)
			mmf_warnx_("sibling memory cgroup: %s", mmf_sys_err());
		snprintf(env->cgdirs[i + 1], sizeof(env->cgdirs[i + 1]), "%s", mmf_cg_path(cg));
	}
}

/* Journal the knob at its current value: a write of the same value. */
static int journal_knob(struct mmf_env *env, const char *path)
{
	char raw[256], val[64];

	if (access(path, W_OK) || mmf_sysfs_read(path, raw, sizeof(raw)) < 0 ||
	    mmf_knob_value(raw, val, sizeof(val)) < 0)
		return -1;
	if (mmf_knob_set(env->j, path, val) < 0) {
		mmf_warnx_("%s", mmf_sys_err());
		return -1;
	}
	return 0;
}

void mmf_env_setup_shared(const struct mmf_env_opts *o, struct mmf_env *env)
{
	char path[PATH_MAX];

	if (env->cg)
		siblings(o, env);
	for (int k = 0; k < MMF_NR_KNOBS; k++) {
		snprintf(path, sizeof(path), THP_DIR "%s", mmf_knob_paths[k]);
		if (!journal_knob(env, path))
			snprintf(env->knobs[k], sizeof(env->knobs[k]), "%s", path);
	}
	/*
	 * ksmd is the ksm stressor's to run (on by default beside the
	 * fuzzer): turned on here for every run, it merged the squeeze's
	 * workload out of reclaim. Without it ksm_wait is EAGAIN.
	 */
}

void mmf_env_teardown_shared(struct mmf_env *env)
{
	for (int i = MMF_NR_CGROUPS - 2; i >= 0; i--) {
		if (env->sibs[i] && mmf_cg_destroy(env->sibs[i]) < 0)
			mmf_warnx_("%s", mmf_sys_err());
		env->sibs[i] = NULL;
	}
}

void mmf_env_exec_opts(const struct mmf_env *env, struct mmf_exec_opts *eo)
{
	for (int i = 0; i < env->nr_swaps; i++)
		eo->swaps[i] = env->swaps[i];
	eo->cgroup_procs = env->procs[0] ? env->procs : NULL;
	for (int i = 0; i < MMF_NR_CGROUPS; i++)
		eo->cgroups[i] = env->cgdirs[i][0] ? env->cgdirs[i] : NULL;
	for (int k = 0; k < MMF_NR_KNOBS; k++)
		eo->knobs[k] = env->knobs[k][0] ? env->knobs[k] : NULL;
}
