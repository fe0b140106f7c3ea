/* SPDX-License-Identifier: GPL-2.0 */
/* The tune family: KSM (the process's merge flag, waiting for ksmd). */
#ifndef MMF_RUNTIME_TUNE_H
#define MMF_RUNTIME_TUNE_H

#include <stdlib.h>
#include <time.h>

#include "runtime/base.h"

#define RT_KSM_DIR	"/sys/kernel/mm/ksm/"
/* ksmd's full scan of a small system takes well under a second. */
#define RT_KSM_WAIT_MS	1500

static inline long rt_prctl_merge(int on)
{
	return rt_ret(syscall(SYS_prctl, 67 /* PR_SET_MEMORY_MERGE */, on, 0, 0, 0));
}

static inline long rt_ksm_scans(void)
{
	char buf[32];

	if (rt_get_file(RT_KSM_DIR "full_scans", buf, sizeof(buf)))
		return -1;
	return atol(buf);
}

/*
 * Wait until ksmd completed the asked number of full scans, so that what is
 * mergeable was merged (one scan stabilizes a page, the next merges it).
 * Bounded: -ETIMEDOUT, or -EAGAIN at once when ksmd is not running.
 */
static inline long rt_ksm_wait(int scans)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	long from = rt_ksm_scans(), now;
	char run[8];

	if (from < 0 || rt_get_file(RT_KSM_DIR "run", run, sizeof(run)))
		return -EOPNOTSUPP;
	if (strcmp(run, "1"))
		return -EAGAIN;
	for (long ms = 0; ms < RT_KSM_WAIT_MS * (long)scans; ms += 10) {
		now = rt_ksm_scans();
		if (now - from >= scans)
			return now - from;
		nanosleep(&ts, NULL);
	}
	return -ETIMEDOUT;
}

#endif
