/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cgroup family: moving a process between the run's memory cgroups
 * (directories the caller names, NULL when there is none), their limits and
 * proactive reclaim.
 */
#ifndef MMF_RUNTIME_CGROUP_H
#define MMF_RUNTIME_CGROUP_H

#include <stdbool.h>
#include <stdio.h>

#include "runtime/base.h"

/* The file of a knob in cgroup dir: v2's name if it exists (false), else v1's. */
static inline bool rt_cg_file(const char *dir, const char *v2, const char *v1, char *path,
			      size_t n)
{
	snprintf(path, n, "%s/%s", dir, v2);
	if (!access(path, F_OK))
		return false;
	snprintf(path, n, "%s/%s", dir, v1);
	return true;
}

/* Process c (this one for c < 0) into cgroup dir. */
static inline long rt_cg_move(const char *dir, const pid_t *kids, int c)
{
	char path[4096], pid[24];
	pid_t who = c < 0 ? getpid() : kids[c];

	if (!dir)
		return -ENODEV;
	if (who <= 0)
		return -ESRCH;
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d\n", (int)who);
	return rt_put_file(path, pid);
}

/*
 * A limit of mb MiB, or none for 0 (v2's "max", v1's "-1"), in file v2 or
 * v1 of cgroup dir, written by put: the executor's restores it after the
 * program, the reproducer's when it exits.
 */
static inline long rt_cg_limit(const char *dir, const char *v2, const char *v1,
			       unsigned long long mb, long (*put)(const char *path, const char *val))
{
	char path[4096], val[32];
	bool v1_file;

	if (!dir)
		return -ENODEV;
	v1_file = rt_cg_file(dir, v2, v1, path, sizeof(path));
	if (mb)
		snprintf(val, sizeof(val), "%llu", mb << 20);
	else
		snprintf(val, sizeof(val), "%s", v1_file ? "-1" : "max");
	return put(path, val);
}

static inline long rt_cg_reclaim(const char *dir, long bytes)
{
	char path[4096], val[32];
	long r;

	if (!dir)
		return -ENODEV;
	snprintf(path, sizeof(path), "%s/memory.reclaim", dir);
	snprintf(val, sizeof(val), "%ld", bytes);
	r = rt_put_file(path, val);
	/* v1 and kernels before 5.19 have no proactive reclaim. */
	return r == -ENOENT ? -EOPNOTSUPP : r;
}

#endif
