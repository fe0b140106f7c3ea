// SPDX-License-Identifier: GPL-2.0
/*
 * pageout-64k and pageout-4k: how long MADV_PAGEOUT takes on an area of
 * 64 KiB large folios, and on the same area of base pages (256 MB in the
 * postings, scaled down to the budget). The THP size knobs are set for the
 * run only, through the journal, so a killed run leaves them restored.
 *
 * Large folios of sizes below PMD size are not counted by /proc/vmstat
 * thp_swpout (PMD-mappable folios only), so thp_swpout here is the sum of
 * every size's stats/swpout (vmstat thp_swpout on kernels without them):
 * large folios written to swap whole. thp_swpout_fallback counts those
 * split first, which is what a regression of this path looks like.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/internal.h"
#include "sys/journal.h"
#include "sys/sysfs.h"
#include "util/util.h"

#define THP_DIR		"/sys/kernel/mm/transparent_hugepage"
#define MAX_KNOBS	16
#define AREA_MAX	(256 * MiB)

struct knob {
	char path[PATH_MAX];
	char old[32];
	bool journaled;		/* recorded before this run: not ours to cancel */
};

struct knobs {
	int nr;
	struct knob k[MAX_KNOBS];
};

static int knob_get(const char *path, char *val, size_t n)
{
	char raw[128];
	int r = mmf_sysfs_read(path, raw, sizeof(raw));

	return r < 0 ? r : mmf_knob_value(raw, val, n);
}

static int knob_set(const char *name, const struct mmf_bench_ctx *c, struct knobs *ks,
		    const char *path, const char *val)
{
	struct knob *k = &ks->k[ks->nr];
	int r;

	if (ks->nr >= MAX_KNOBS)
		return mmf_bench_fail(name, E2BIG, "too many THP sizes");
	r = knob_get(path, k->old, sizeof(k->old));
	if (r < 0)
		return mmf_bench_fail(name, -r, "%s", path);
	if (!strcmp(k->old, val))
		return 0;
	if (!c->j)
		return mmf_bench_fail(name, EOPNOTSUPP, "%s is %s, and no journal to change it",
				  path, k->old);
	snprintf(k->path, sizeof(k->path), "%s", path);
	k->journaled = mmf_journal_has(c->j, &mmf_jk_knob, path);
	r = mmf_knob_set(c->j, path, val);
	if (r < 0)
		return mmf_bench_fail(name, -r, "%s", mmf_sys_err());
	ks->nr++;
	return 0;
}

/* Back as they were, and cancelled in the journal: undone by us. */
static void knobs_restore(const struct mmf_bench_ctx *c, struct knobs *ks)
{
	for (int i = ks->nr - 1; i >= 0; i--) {
		struct knob *k = &ks->k[i];

		if (mmf_knob_set(c->j, k->path, k->old) < 0)
			mmf_warnx_("bench: cannot restore %s: %s", k->path, mmf_sys_err());
		else if (!k->journaled)
			mmf_journal_done(c->j, &mmf_jk_knob, k->path);
	}
	ks->nr = 0;
}

/*
 * The size under test gets want ("always" or "never"); every other size
 * that would give this area a large folio without madvise (always, or
 * inherit from a global always) gets "never", so only one size is in play.
 */
static int knobs_setup(const char *name, const struct mmf_bench_ctx *c, struct knobs *ks,
		       const char *size, const char *want)
{
	char global[32] = "", path[PATH_MAX], val[32];
	struct dirent *de;
	int r = 0;
	DIR *d;

	snprintf(path, sizeof(path), THP_DIR "/%s/enabled", size);
	if (access(path, F_OK))
		return !strcmp(want, "never") ? 0 :
		       mmf_bench_fail(name, EOPNOTSUPP, "no %s", path);
	r = knob_set(name, c, ks, path, want);
	if (r < 0)
		return r;
	knob_get(THP_DIR "/enabled", global, sizeof(global));
	d = opendir(THP_DIR);
	if (!d)
		return mmf_bench_fail(name, errno, THP_DIR);
	while (r >= 0 && (de = readdir(d))) {
		if (strncmp(de->d_name, "hugepages-", 10) || !strcmp(de->d_name, size))
			continue;
		snprintf(path, sizeof(path), THP_DIR "/%s/enabled", de->d_name);
		if (knob_get(path, val, sizeof(val)) < 0)
			continue;
		if (!strcmp(val, "inherit"))
			snprintf(val, sizeof(val), "%s", global);
		if (!strcmp(val, "always"))
			r = knob_set(name, c, ks, path, "never");
	}
	closedir(d);
	return r;
}

/* The sum of stat over every THP size; false if no size has it. */
static bool mthp_sum(const char *stat, uint64_t *sum)
{
	char path[PATH_MAX];
	struct dirent *de;
	bool have = false;
	uint64_t v;
	DIR *d;

	*sum = 0;
	d = opendir(THP_DIR);
	if (!d)
		return false;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "hugepages-", 10))
			continue;
		snprintf(path, sizeof(path), THP_DIR "/%s/stats/%s", de->d_name, stat);
		if (mmf_sysfs_read_u64(path, &v) >= 0) {
			*sum += v;
			have = true;
		}
	}
	closedir(d);
	return have;
}

static int measure(const char *name, const struct mmf_bench_ctx *c,
		   struct mmf_bench_result *res)
{
	size_t len = MIN(c->mem_bytes, AREA_MAX) & ~(MiB - 1);
	uint64_t t0, out0, out1, fb0, fb1;
	bool have_out, have_fb;
	struct bench_vmstat v0, v1;
	char *p;
	int r;

	/* 2 MiB aligned: the whole area can be 64 KiB folios. */
	p = mmf_bench_map(len, 2 * MiB);
	if (!p)
		return mmf_bench_fail(name, errno, "mmap %zu MiB", len / MiB);
	mmf_bench_fill(p, len, 1);
	have_out = mthp_sum("swpout", &out0);
	have_fb = mthp_sum("swpout_fallback", &fb0);
	mmf_bench_vmstat_read(&v0);
	t0 = mmf_now_ns();
	r = mmf_bench_pageout(p, len);
	if (r < 0) {
		munmap(p, len);
		return mmf_bench_fail(name, -r, "MADV_PAGEOUT");
	}
	mmf_bench_add(res, "pageout_ms", "ms", mmf_bench_ms_since(t0), false);
	mmf_bench_vmstat_read(&v1);
	mthp_sum("swpout", &out1);
	mthp_sum("swpout_fallback", &fb1);
	munmap(p, len);
	if (have_out)
		mmf_bench_add(res, "thp_swpout", "folios", (double)(out1 - out0), true);
	else if (v0.have[BV_THP_SWPOUT])
		mmf_bench_add(res, "thp_swpout", "folios", (double)(v1.v[BV_THP_SWPOUT] -
							      v0.v[BV_THP_SWPOUT]), true);
	if (have_fb)
		mmf_bench_add(res, "thp_swpout_fallback", "folios", (double)(fb1 - fb0), false);
	mmf_bench_add_vm_delta(res, "pswpout", &v0, &v1, BV_PSWPOUT);
	return 0;
}

static int pageout_run(const char *name, const char *want, const struct mmf_bench_ctx *c,
		       struct mmf_bench_result *res)
{
	struct knobs ks = { 0 };
	int r;

	r = mmf_bench_need_swap(name);
	if (r < 0)
		return r;
	r = knobs_setup(name, c, &ks, "hugepages-64kB", want);
	if (r >= 0)
		r = measure(name, c, res);
	knobs_restore(c, &ks);
	return r;
}

int mmf_bench_pageout_64k(const struct mmf_bench_ctx *c, struct mmf_bench_result *res)
{
	return pageout_run("pageout-64k", "always", c, res);
}

int mmf_bench_pageout_4k(const struct mmf_bench_ctx *c, struct mmf_bench_result *res)
{
	return pageout_run("pageout-4k", "never", c, res);
}
