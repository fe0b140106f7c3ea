// SPDX-License-Identifier: GPL-2.0
/*
 * memcg squeeze: moves the fuzzing cgroup's limits up and down around the
 * limit it was made with, and asks for proactive reclaim, so that its
 * tasks stay in direct reclaim. An OOM kill in the cgroup raises the floor.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "stressors/memcg.h"
#include "stressors/stressor.h"
#include "sys/cgroup.h"
#include "sys/sysfs.h"
#include "util/util.h"

enum { OPT_FLOOR, OPT_RECLAIM };

struct squeeze {
	int64_t floor;
	uint64_t oom_kills;
};

int mmf_memcg_make(struct mmf_journal *j, const char *name, int64_t limit,
		   struct mmf_cgroup **cgp)
{
	int r = mmf_cg_create(j, name, cgp);

	if (r >= 0)
		r = mmf_cg_set_limit(*cgp, limit, limit * 3 / 4, -1);
	if (r < 0 && *cgp) {
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", mmf_sys_err());
		mmf_cg_destroy(*cgp);
		*cgp = NULL;
		return mmf_sys_set_err(r, msg);
	}
	return r;
}

void mmf_memcg_squeeze_limits(int64_t base, int64_t floor, double r, int64_t *max,
			      int64_t *high)
{
	floor = MIN(floor, base);
	*high = floor + (int64_t)(r * (base - floor));
	*max = MAX(*high + *high / 2, 2 * floor);
}

static int squeeze_setup(struct mmf_stress_ctx *c)
{
	if (!c->t->cg)
		return mmf_sys_fail(EOPNOTSUPP, "memcg: no fuzzing cgroup");
	return 0;
}

static int squeeze_step(struct mmf_stress_ctx *c)
{
	struct squeeze *s = c->priv;
	struct mmf_cg_stats st;
	int64_t max, high;
	int r;

	if (!s) {
		s = c->priv = mmf_xcalloc(1, sizeof(*s));
		s->floor = c->opt[OPT_FLOOR] << 20;
	}
	if (mmf_cg_stats(c->t->cg, &st) == 0) {
		if (st.ev_oom_kill > s->oom_kills && s->oom_kills)
			s->floor = MIN(s->floor * 2, c->t->cg_limit / 2);
		s->oom_kills = st.ev_oom_kill;
	}
	mmf_memcg_squeeze_limits(c->t->cg_limit, s->floor,
				 mmf_rand_below(&c->rnd, 1000) / 1000.0, &max, &high);
	r = mmf_cg_set_limit(c->t->cg, max, high, -1);
	if (r < 0)
		return r;
	if (c->opt[OPT_RECLAIM]) {
		r = mmf_cg_reclaim(c->t->cg, (1 + mmf_rand_below(&c->rnd, c->opt[OPT_RECLAIM]))
				   << 20);
		if (r == -EOPNOTSUPP || r == -EAGAIN)
			r = 0;
	}
	return r;
}

static void squeeze_teardown(struct mmf_stress_ctx *c)
{
	mmf_cg_set_limit(c->t->cg, c->t->cg_limit, c->t->cg_limit * 3 / 4, -1);
}

const struct mmf_stressor_info mmf_stressor_memcg = {
	.name = "memcg",
	.help = "squeeze the fuzzing cgroup: vary memory.high/max (v1: limit_in_bytes), "
		"memory.reclaim",
	.period_ms = 500,
	.opts = {
		{ "floor", "lowest memory.high, MiB", 8, 1, 1 << 20 },
		{ "reclaim", "memory.reclaim up to this many MiB a step, 0: none", 4, 0, 1024 },
	},
	.setup = squeeze_setup,
	.step = squeeze_step,
	.teardown = squeeze_teardown,
};
