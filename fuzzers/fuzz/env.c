// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fuzz/env.h"
#include "stressors/memcg.h"
#include "sys/cgroup.h"
#include "sys/journal.h"
#include "sys/sysfs.h"
#include "util/util.h"

/* zram, two files and a loop device: four kinds of swap-out and -in. */
const struct mmf_env_opts mmf_env_defaults = {
	.swap_bytes = 256 << 20,
	.nr_swapfiles = 2,
	.zram = true,
	.loop = true,
	.cg_limit = 24 << 20,
};

int mmf_env_setup(const struct mmf_env_opts *o, struct mmf_env *env, char *err, size_t n)
{
	struct mmf_swapset_opts so = {
		.dir = o->swapdir, .bytes = o->swap_bytes, .nr_files = o->nr_swapfiles,
		.zram = o->zram, .loop = o->loop, .max = MMF_NR_SWAPS,
	};
	int r;

	memset(env, 0, sizeof(*env));
	r = mmf_journal_open(NULL, &env->j);
	if (r < 0) {
		snprintf(err, n, "%s", mmf_sys_err());
		return -1;
	}
	mmf_journal_guard(env->j);
	for (int i = 0; i < MMF_NR_SWAPS; i++)
		so.use[i] = o->use_swaps[i];
	r = mmf_swapset_make(env->j, &so, &env->set);
	if (r < 0) {
		snprintf(err, n, "swap: %s", mmf_sys_err());
		goto fail;
	}
	env->nr_swaps = MIN(env->set.nr, MMF_NR_SWAPS);
	for (int i = 0; i < env->nr_swaps; i++)
		env->swaps[i] = env->set.path[i];
	env->cg_limit = o->cg_limit;
	if (o->cg_limit > 0) {
		r = mmf_memcg_make(env->j, NULL, o->cg_limit, &env->cg);
		if (r < 0) {
			snprintf(err, n, "memory cgroup: %s", mmf_sys_err());
			goto fail;
		}
		snprintf(env->procs, sizeof(env->procs), "%s/cgroup.procs", mmf_cg_path(env->cg));
	}
	mmf_env_setup_shared(o, env);
	return 0;
fail:
	mmf_env_teardown(env);
	return -1;
}

void mmf_env_restore_swaps(struct mmf_env *env)
{
	mmf_swapset_restore(&env->set);
}

int mmf_env_teardown(struct mmf_env *env)
{
	int r = 0;

	mmf_env_teardown_shared(env);
	if (env->cg && mmf_cg_destroy(env->cg) < 0)
		r = -1;
	env->cg = NULL;
	if (env->j && mmf_journal_close(env->j, true) < 0)
		r = -1;
	env->j = NULL;
	return r;
}
