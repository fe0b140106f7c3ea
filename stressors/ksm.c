// SPDX-License-Identifier: GPL-2.0
/*
 * KSM: runs ksmd hard (scan rate, sleep, now and then unmerging everything)
 * over the workload's MADV_MERGEABLE areas and an area of its own whose
 * identical pages it keeps rewriting and paging out, so that swap-in meets
 * KSM folios that are not exclusive. merge_across_nodes is left alone: it
 * can only change while nothing is merged, so restoring it could fail.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "stressors/stressor.h"
#include "sys/sysfs.h"

#define KSM	"/sys/kernel/mm/ksm"

enum { OPT_SCAN, OPT_AREA };

struct ksm {
	char *area;
	size_t pages;
	long pg;
};

static int knob(struct mmf_stress_ctx *c, const char *name, long v)
{
	char path[128], val[32];

	snprintf(path, sizeof(path), KSM "/%s", name);
	snprintf(val, sizeof(val), "%ld", v);
	return mmf_knob_set(c->t->j, path, val);
}

static int ksm_setup(struct mmf_stress_ctx *c)
{
	int r;

	if (access(KSM "/run", W_OK))
		return mmf_sys_fail(errno == ENOENT ? EOPNOTSUPP : errno, KSM "/run");
	r = knob(c, "run", 1);
	if (r >= 0)
		r = knob(c, "pages_to_scan", c->opt[OPT_SCAN]);
	if (r >= 0)
		r = knob(c, "sleep_millisecs", 10);
	return r;
}

/* Few distinct contents: most pages merge with many others. */
static void fill(struct ksm *k, size_t page, unsigned int tag)
{
	memset(k->area + page * k->pg, 'a' + tag % 4, k->pg);
}

static int ksm_init(struct mmf_stress_ctx *c)
{
	struct ksm *k = mmf_xcalloc(1, sizeof(*k));

	k->pg = sysconf(_SC_PAGESIZE);
	k->pages = (c->opt[OPT_AREA] << 20) / k->pg;
	k->area = mmap(NULL, k->pages * k->pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (k->area == MAP_FAILED) {
		free(k);
		return mmf_sys_fail(errno, "ksm: mmap");
	}
	for (size_t i = 0; i < k->pages; i++)
		fill(k, i, i);
	if (madvise(k->area, k->pages * k->pg, MADV_MERGEABLE))
		mmf_sys_fail(errno, "ksm: MADV_MERGEABLE");
	c->priv = k;
	return 0;
}

static int ksm_step(struct mmf_stress_ctx *c)
{
	struct ksm *k = c->priv;
	size_t first, n;
	int r;

	if (!k) {
		r = ksm_init(c);
		if (r < 0)
			return r;
		k = c->priv;
	}
	/* Writes break merged pages (COW); pageout sends merged ones to swap. */
	for (int i = 0; i < 16; i++)
		fill(k, mmf_rand_below(&c->rnd, k->pages), mmf_rand64(&c->rnd));
	first = mmf_rand_below(&c->rnd, k->pages);
	n = MIN(k->pages - first, 1 + mmf_rand_below(&c->rnd, 64));
	madvise(k->area + first * k->pg, n * k->pg, MADV_PAGEOUT);
	r = knob(c, "pages_to_scan", 100 + mmf_rand_below(&c->rnd, 2 * c->opt[OPT_SCAN]));
	if (r >= 0)
		r = knob(c, "sleep_millisecs", 5 + mmf_rand_below(&c->rnd, 20));
	/* Unmerge everything now and then: it races with swap-in of KSM pages. */
	if (r >= 0 && mmf_rand_oneof(&c->rnd, 30)) {
		knob(c, "run", 2);
		r = knob(c, "run", 1);
	}
	return r;
}

const struct mmf_stressor_info mmf_stressor_ksm = {
	.name = "ksm",
	.help = "run ksmd hard over MADV_MERGEABLE areas (ours and the workload's), "
		"unmerge at times",
	.period_ms = 500,
	.opts = {
		{ "scan", "ksm pages_to_scan around this", 300, 1, 100000 },
		{ "area", "own mergeable area, MiB", 8, 1, 1024 },
	},
	.setup = ksm_setup,
	.step = ksm_step,
};
