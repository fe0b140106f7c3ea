/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fuzzing cgroup: made here for the native fuzzer's environment and
 * squeezed by the memcg stressor (memcg.c), one implementation for both.
 */
#ifndef MMF_STRESS_MEMCG_H
#define MMF_STRESS_MEMCG_H

#include <stdint.h>

struct mmf_journal;
struct mmf_cgroup;

/*
 * A cgroup mmfuzz.<pid>[.name] limited to limit bytes (high or the soft limit at
 * 3/4 of it), so that programs reclaim. 0 or -errno (mmf_sys_err()).
 */
int mmf_memcg_make(struct mmf_journal *j, const char *name, int64_t limit,
		   struct mmf_cgroup **cgp);

/*
 * The squeeze's next limits from the base limit and a random r in [0, 1):
 * high in [base/4, base], max never below twice the floor so that the
 * workload reclaims rather than being OOM-killed. Pure, for the unit test.
 */
void mmf_memcg_squeeze_limits(int64_t base, int64_t floor, double r, int64_t *max,
			      int64_t *high);

#endif
