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

/* The file of knob k in cgroup dir: v2's name if it exists, else v1's. */
static void cg_file(const char *dir, int k, char *path, size_t n)
{
	snprintf(path, n, "%s/%s", dir, mmf_cgknob_files[k][0]);
	if (access(path, F_OK))
		snprintf(path, n, "%s/%s", dir, mmf_cgknob_files[k][1]);
}

static bool cg_v1(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/memory.limit_in_bytes", dir);
	return !access(path, F_OK);
}

long mmf_exec_cg_move(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	const char *dir = in->o->cgroups[s->args[1]];
	char path[PATH_MAX], pid[24];
	pid_t who = s->args[0] == MMF_TARGET_SELF ? getpid() : in->kids[s->args[0] - 1];

	if (!dir)
		return -ENODEV;
	if (who <= 0)
		return -ESRCH;
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d\n", (int)who);
	return mmf_knob_write(path, pid);
}

long mmf_exec_cg_limit(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	const char *dir = in->o->cgroups[s->args[0]];
	char path[PATH_MAX], val[32];

	if (!dir)
		return -ENODEV;
	cg_file(dir, s->args[1], path, sizeof(path));
	if (!s->args[2])
		snprintf(val, sizeof(val), "%s", cg_v1(dir) ? "-1" : "max");
	else
		snprintf(val, sizeof(val), "%llu", (unsigned long long)s->args[2] << 20);
	return mmf_knob_write(path, val);
}

long mmf_exec_cg_reclaim(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	const char *dir = in->o->cgroups[s->args[0]];
	char path[PATH_MAX], val[32];
	long r;

	if (!dir)
		return -ENODEV;
	snprintf(path, sizeof(path), "%s/memory.reclaim", dir);
	snprintf(val, sizeof(val), "%lld", (long long)s->args[1] * in->psz);
	r = mmf_knob_write(path, val);
	/* v1 and kernels before 5.19 have no proactive reclaim. */
	return r == -ENOENT ? -EOPNOTSUPP : r;
}

void mmf_cg_save(const struct mmf_prog *p, const struct mmf_exec_opts *o,
		 struct mmf_exec_saved *sv)
{
	char path[PATH_MAX];

	sv->cg = mmf_has_call(p, MMF_CG_LIMIT);
	for (int c = 0; sv->cg && c < MMF_NR_CGROUPS; c++) {
		for (int k = 0; o->cgroups[c] && k < 3; k++) {
			cg_file(o->cgroups[c], k, path, sizeof(path));
			if (mmf_knob_read(path, sv->cgval[c][k], sizeof(sv->cgval[c][k])))
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
				mmf_knob_write(path, sv->cgval[c][k]);
			}
}
