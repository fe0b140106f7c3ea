// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fuzz/env.h"
#include "sys/cgroup.h"
#include "sys/journal.h"
#include "sys/swapdev.h"
#include "sys/sysfs.h"
#include "util/util.h"

/*
 * zram first and two files at one lower priority: the kernel round-robins
 * equal priorities, so swap entries spread over several devices.
 */
const struct mmf_env_opts mmf_env_defaults = {
	.swap_bytes = 256 << 20,
	.nr_swapfiles = 2,
	.zram = true,
	.cg_limit = 24 << 20,
};

int mmf_env_setup(const struct mmf_env_opts *o, struct mmf_env *env, char *err, size_t n)
{
	int r;

	memset(env, 0, sizeof(*env));
	r = mmf_journal_open(NULL, &env->j);
	if (r < 0) {
		snprintf(err, n, "%s", mmf_sys_err());
		return -1;
	}
	mmf_journal_guard(env->j);
	for (int i = 0; i < MMF_NR_SWAPS && o->use_swaps[i]; i++) {
		struct mmf_swap_info info;

		snprintf(env->swaps[i], sizeof(env->swaps[i]), "%s", o->use_swaps[i]);
		env->prio[i] = mmf_swap_find(o->use_swaps[i], &info) > 0 ? info.prio : -1;
		env->nr_swaps++;
	}
	if (env->nr_swaps)
		goto cgroup;
	if (o->zram && mmf_zram_add(env->j, o->swap_bytes, 10, env->swaps[env->nr_swaps]) >= 0)
		env->prio[env->nr_swaps++] = 10;
	for (int i = 0; i < o->nr_swapfiles && env->nr_swaps < MMF_NR_SWAPS; i++) {
		r = mmf_swapfile_add(env->j, o->swapdir, o->swap_bytes, 5,
				     env->swaps[env->nr_swaps]);
		if (r < 0) {
			snprintf(err, n, "swap file: %s", mmf_sys_err());
			goto fail;
		}
		env->prio[env->nr_swaps++] = 5;
	}
cgroup:
	if (o->cg_limit > 0) {
		r = mmf_cg_create(env->j, NULL, &env->cg);
		if (r >= 0)
			r = mmf_cg_set_limit(env->cg, o->cg_limit, o->cg_limit * 3 / 4, -1);
		if (r < 0) {
			snprintf(err, n, "memory cgroup: %s", mmf_sys_err());
			goto fail;
		}
		snprintf(env->procs, sizeof(env->procs), "%s/cgroup.procs", mmf_cg_path(env->cg));
	}
	mmf_env_setup_c(o, env);
	return 0;
fail:
	mmf_env_teardown(env);
	return -1;
}

void mmf_env_restore_swaps(struct mmf_env *env)
{
	struct mmf_swap_info info;

	for (int i = 0; i < env->nr_swaps; i++)
		if (mmf_swap_find(env->swaps[i], &info) <= 0)
			mmf_swapon(env->swaps[i], env->prio[i]);
}

int mmf_env_teardown(struct mmf_env *env)
{
	int r = 0;

	mmf_env_teardown_c(env);
	if (env->cg && mmf_cg_destroy(env->cg) < 0)
		r = -1;
	env->cg = NULL;
	if (env->j && mmf_journal_close(env->j, true) < 0)
		r = -1;
	env->j = NULL;
	return r;
}
