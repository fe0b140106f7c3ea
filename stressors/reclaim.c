// SPDX-License-Identifier: GPL-2.0
/*
 * cross-process reclaim: process_madvise(MADV_PAGEOUT or MADV_COLD) from
 * outside on random writable private ranges of a random process of the
 * fuzzing cgroup, through a pidfd. The process may exit at any moment:
 * ESRCH is an expected outcome.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "stressors/stressor.h"
#include "sys/cgroup.h"
#include "sys/sysfs.h"

#define MAX_IOV		8
#define MAX_RANGE	(2 << 20)

enum { OPT_RANGES };

static int reclaim_setup(struct mmf_stress_ctx *c)
{
	if (!c->t->cg)
		return mmf_sys_fail(EOPNOTSUPP, "reclaim: no fuzzing cgroup to find processes in");
	return 0;
}

/* A random pid of the cgroup, 0 if it is empty. */
static pid_t pick_pid(struct mmf_stress_ctx *c)
{
	char path[PATH_MAX], *text, *p;
	pid_t pid = 0;
	int n = 0;

	snprintf(path, sizeof(path), "%s/cgroup.procs", mmf_cg_path(c->t->cg));
	text = mmf_read_text(path);
	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (*p != '\n' && mmf_rand_below(&c->rnd, ++n) == 0)
			pid = atoi(p);	/* reservoir sampling: uniform */
	free(text);
	return pid;
}

/* Up to max random sub-ranges of the process's rw-p mappings. */
static int pick_ranges(struct mmf_stress_ctx *c, pid_t pid, struct iovec *iov, int max)
{
	char path[64], *text, *l;
	long pg = sysconf(_SC_PAGESIZE);
	int n = 0, seen = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	text = mmf_read_text(path);
	for (l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		uintptr_t lo, hi, len, off;
		char perms[8];
		int k;

		if (sscanf(l, "%" SCNxPTR "-%" SCNxPTR " %7s", &lo, &hi, perms) != 3 ||
		    strcmp(perms, "rw-p"))
			continue;
		/* Reservoir over the ranges, so that a big process is no bias. */
		k = seen < max ? seen : (int)mmf_rand_below(&c->rnd, seen + 1);
		seen++;
		if (k >= max)
			continue;
		len = MIN(hi - lo, (uintptr_t)MAX_RANGE);
		off = mmf_rand_below(&c->rnd, (hi - lo - len) / pg + 1) * pg;
		iov[k] = (struct iovec){ (void *)(lo + off), len };
		n = MAX(n, k + 1);
	}
	free(text);
	return n;
}

static int reclaim_step(struct mmf_stress_ctx *c)
{
	struct iovec iov[MAX_IOV];
	pid_t pid = pick_pid(c);
	int pidfd, n, adv, r = 0;

	if (!pid)
		return 0;
	n = pick_ranges(c, pid, iov, MIN(c->opt[OPT_RANGES], MAX_IOV));
	if (!n)
		return 0;
	pidfd = syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0)
		return mmf_sys_fail(errno, "pidfd_open %d", (int)pid);
	adv = mmf_rand_oneof(&c->rnd, 3) ? MADV_COLD : MADV_PAGEOUT;
	if (syscall(SYS_process_madvise, pidfd, iov, n, adv, 0) < 0)
		r = mmf_sys_fail(errno, "process_madvise %d", (int)pid);
	close(pidfd);
	return r;
}

const struct mmf_stressor_info mmf_stressor_reclaim = {
	.name = "reclaim",
	.help = "process_madvise(MADV_PAGEOUT/COLD) from outside on the fuzzing cgroup's "
		"processes",
	.period_ms = 100,
	.opts = {
		{ "ranges", "ranges per call", 4, 1, MAX_IOV },
	},
	.setup = reclaim_setup,
	.step = reclaim_step,
};
