// SPDX-License-Identifier: GPL-2.0
/*
 * swap cycler: swapoff one of the run's devices while the workload faults
 * its pages back in, hold it off a while, swap it on again, at its own
 * priority or another one. swapoff's ENOMEM (the pages do not fit back in
 * memory) is an expected outcome. One device always stays on.
 */
#include <errno.h>
#include <unistd.h>

#include "stressors/stressor.h"
#include "sys/swapdev.h"
#include "sys/sysfs.h"

enum { OPT_HOLD };

static int swap_setup(struct mmf_stress_ctx *c)
{
	if (c->t->swaps->nr < 2)
		return mmf_sys_fail(EOPNOTSUPP, "swap: fewer than 2 swap devices to cycle");
	return 0;
}

static int swap_step(struct mmf_stress_ctx *c)
{
	const struct mmf_swapset *s = c->t->swaps;
	struct mmf_swap_info info;
	int on[MMF_SWAPSET_MAX], non = 0, i, prio, r;

	for (i = 0; i < s->nr; i++)
		if (mmf_swap_find(s->path[i], &info) > 0)
			on[non++] = i;
	if (non < 2) {
		mmf_swapset_restore(s);
		return 0;
	}
	i = on[mmf_rand_below(&c->rnd, non)];
	r = mmf_swapoff(s->path[i]);
	if (r < 0)
		return r;
	if (c->opt[OPT_HOLD])
		usleep(mmf_rand_below(&c->rnd, c->opt[OPT_HOLD]) * 1000);
	/* Now and then another priority: the order of the devices changes. */
	prio = mmf_rand_oneof(&c->rnd, 3) ? (int)mmf_rand_below(&c->rnd, 20) : s->prio[i];
	r = mmf_swapon(s->path[i], prio);
	/* EBUSY: already back on; the fuzz loop restores devices after each program. */
	return r == -EBUSY ? 0 : r;
}

static void swap_teardown(struct mmf_stress_ctx *c)
{
	mmf_swapset_restore(c->t->swaps);
}

const struct mmf_stressor_info mmf_stressor_swap = {
	.name = "swap",
	.help = "swapoff/swapon the run's swap devices (zram, files, loop; a guest's disks) "
		"at changing priorities",
	.period_ms = 1000,
	.opts = {
		{ "hold", "longest time a device stays off, ms", 1000, 0, 60000 },
	},
	.setup = swap_setup,
	.step = swap_step,
	.teardown = swap_teardown,
};
