// SPDX-License-Identifier: GPL-2.0
/*
 * The cgroup family: moving a process between the run's memory cgroups,
 * their limits and proactive reclaim. The runner restores the limits after
 * each program (mmf_cg_restore()).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "exec/calls.h"
#include "exec/knobs.h"
#include "runtime/cgroup.h"

/* The file of limit k in cgroup dir. */
static void cg_file(const char *dir, int k, char *path, size_t n)
{
	rt_cg_file(dir, mmf_cgknob_files[k][0], mmf_cgknob_files[k][1], path, n);
}

long mmf_exec_cg_move(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return rt_cg_move(in->o->cgroups[s->args[1]], in->kids, (int)s->args[0] - 1);
}

long mmf_exec_cg_limit(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	const char *const *file = mmf_cgknob_files[s->args[1]];

	return rt_cg_limit(in->o->cgroups[s->args[0]], file[0], file[1], s->args[2], rt_put_file);
}

long mmf_exec_cg_reclaim(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return rt_cg_reclaim(in->o->cgroups[s->args[0]], (long)s->args[1] * in->psz);
}

void mmf_cg_save(const struct mmf_prog *p, const struct mmf_exec_opts *o,
		 struct mmf_exec_saved *sv)
{
	char path[PATH_MAX];

	sv->cg = mmf_has_call(p, MMF_CG_LIMIT);
	for (int c = 0; sv->cg && c < MMF_NR_CGROUPS; c++) {
		for (int k = 0; o->cgroups[c] && k < 3; k++) {
			cg_file(o->cgroups[c], k, path, sizeof(path));
			if (rt_get_file(path, sv->cgval[c][k], sizeof(sv->cgval[c][k])))
				sv->cgval[c][k][0] = '\0';
		}
	}
}

void mmf_cg_restore(const struct mmf_exec_opts *o, const struct mmf_exec_saved *sv)
{
	char path[PATH_MAX];

	/* Twice: v1 refuses a memsw limit below the memory limit and the
	 * reverse, so one order may fail where the other succeeds.
	 */
	for (int pass = 0; sv->cg && pass < 2; pass++)
		for (int c = 0; c < MMF_NR_CGROUPS; c++)
			for (int k = 0; o->cgroups[c] && k < 3; k++) {
				if (!sv->cgval[c][k][0])
					continue;
				cg_file(o->cgroups[c], k, path, sizeof(path));
				rt_put_file(path, sv->cgval[c][k]);
			}
}
