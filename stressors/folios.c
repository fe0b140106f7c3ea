// SPDX-License-Identifier: GPL-2.0
/*
 * large folios: turns THP sizes (mTHP hugepages-NkB) and shmem THP on and
 * off at random, pokes khugepaged, compacts memory and drops caches, so
 * that swap-out and unmap meet large folios and have to split them. Every
 * knob goes through the journal and is restored at the end.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stressors/stressor.h"
#include "sys/sysfs.h"

#define THP	"/sys/kernel/mm/transparent_hugepage"
#define MAX_SIZES 16

enum { OPT_DROP };

struct folios {
	int nr;
	char size[MAX_SIZES][NAME_MAX + 1];	/* "hugepages-64kB" */
};

/* A knob, the values to pick from; "always" is listed twice: mostly on. */
static const struct choice {
	const char *file;
	const char *values[6];
} top[] = {
	{ THP "/enabled", { "always", "always", "madvise", "never" } },
	{ THP "/shmem_enabled", { "always", "within_size", "advise", "never" } },
	{ THP "/defrag", { "always", "defer", "madvise", "never" } },
	{ THP "/khugepaged/scan_sleep_millisecs", { "0", "10", "100" } },
	{ THP "/khugepaged/pages_to_scan", { "512", "4096" } },
}, per_size[] = {
	{ "enabled", { "always", "always", "madvise", "inherit", "never" } },
	{ "shmem_enabled", { "always", "inherit", "within_size", "advise", "never" } },
};

static const char *pick(struct mmf_stress_ctx *c, const struct choice *ch)
{
	int n = 0;

	while (n < 6 && ch->values[n])
		n++;
	return ch->values[mmf_rand_below(&c->rnd, n)];
}

static int folios_setup(struct mmf_stress_ctx *c)
{
	struct folios *f;
	struct dirent *d;
	DIR *dir = opendir(THP);

	if (!dir)
		return mmf_sys_fail(errno == ENOENT ? EOPNOTSUPP : errno, "open " THP);
	f = c->priv = mmf_xcalloc(1, sizeof(*f));
	while ((d = readdir(dir)) && f->nr < MAX_SIZES)
		if (!strncmp(d->d_name, "hugepages-", 10))
			snprintf(f->size[f->nr++], sizeof(f->size[0]), "%s", d->d_name);
	closedir(dir);
	return 0;
}

static int folios_step(struct mmf_stress_ctx *c)
{
	struct folios *f = c->priv;
	const struct choice *ch;
	char path[PATH_MAX];
	int r = 0;

	/* Most steps change one size: that is where the splits come from. */
	if (f->nr && !mmf_rand_oneof(&c->rnd, 4)) {
		ch = &per_size[mmf_rand_below(&c->rnd, ARRAY_SIZE(per_size))];
		snprintf(path, sizeof(path), THP "/%s/%s", f->size[mmf_rand_below(&c->rnd, f->nr)],
			 ch->file);
		r = mmf_knob_set(c->t->j, path, pick(c, ch));
	} else {
		ch = &top[mmf_rand_below(&c->rnd, ARRAY_SIZE(top))];
		r = mmf_knob_set(c->t->j, ch->file, pick(c, ch));
	}
	/* Triggers, not settings: nothing to restore. */
	if (mmf_rand_oneof(&c->rnd, 10))
		mmf_sysfs_write("/proc/sys/vm/compact_memory", "1");
	if (c->opt[OPT_DROP] && mmf_rand_oneof(&c->rnd, c->opt[OPT_DROP]))
		mmf_sysfs_write("/proc/sys/vm/drop_caches", "1");
	return r == -ENOENT ? 0 : r;
}

static void folios_teardown(struct mmf_stress_ctx *c)
{
	free(c->priv);
}

const struct mmf_stressor_info mmf_stressor_folios = {
	.name = "folios",
	.help = "large folios: mTHP sizes and shmem THP on/off, khugepaged, compaction, "
		"drop_caches",
	.period_ms = 500,
	.opts = {
		{ "drop", "drop the page cache once in N steps on average, 0: never", 40, 0,
		  1000000 },
	},
	.setup = folios_setup,
	.step = folios_step,
	.teardown = folios_teardown,
};
