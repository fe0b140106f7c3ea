// SPDX-License-Identifier: GPL-2.0
/*
 * JSON lines rather than CSV: which counters exist depends on the kernel
 * (config, version, cgroup v1 or v2, the swap devices of the moment), and a
 * self-describing line needs no header that would have to change mid-run.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stressors/sampler.h"
#include "sys/cgroup.h"
#include "sys/swapdev.h"
#include "sys/sysfs.h"

static const char *const vmstat_keys[] = {
	"pswpin", "pswpout", "pgfault", "pgmajfault", "pgscan_*", "pgsteal_*", "thp_*",
	"swap_ra", "swap_ra_hit", "oom_kill", "compact_stall", "compact_success",
	"workingset_refault_anon", "zswpin", "zswpout", "ksm_swpin_copy", "cow_ksm", NULL
};
static const char *const meminfo_keys[] = {
	"MemFree", "MemAvailable", "AnonPages", "AnonHugePages", "ShmemHugePages",
	"SwapTotal", "SwapFree", "SwapCached", "Mlocked", NULL
};
static const char *const memstat_keys[] = {
	/* v2 */ "anon", "file", "swapcached", "pgscan", "pgsteal", "pgfault", "pgmajfault",
	"thp_swpout", "thp_swpout_fallback", "workingset_refault_anon",
	/* v1 */ "rss", "cache", "swap", NULL
};
static const char *const events_keys[] = {
	"low", "high", "max", "oom", "oom_kill", NULL
};
static const char *const ksm_files[] = {
	"pages_scanned", "full_scans", "pages_shared", "pages_sharing", NULL
};

static bool key_match(const char *key, size_t n, const char *const *keys)
{
	for (; *keys; keys++) {
		size_t k = strlen(*keys);

		if ((*keys)[k - 1] == '*' ? n >= k - 1 && !strncmp(key, *keys, k - 1) :
		    n == k && !strncmp(key, *keys, k))
			return true;
	}
	return false;
}

void mmf_sample_kv(struct strbuf *sb, const char *prefix, const char *text,
		   const char *const *keys)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		size_t n = strcspn(l, " :\n");
		const char *v = l + n;
		char *end;
		unsigned long long val;

		while (*v == ':' || *v == ' ')
			v++;
		val = strtoull(v, &end, 10);
		if (end == v || !key_match(l, n, keys))
			continue;
		mmf_sb_printf(sb, ",\"%s.%.*s\":%llu", prefix, (int)n, l, val);
	}
}

int mmf_sample_get(const char *line, const char *key, uint64_t *val)
{
	size_t n = strlen(key);

	for (const char *p = line; (p = strchr(p, '"')); p++) {
		if (!strncmp(p + 1, key, n) && p[n + 1] == '"' && p[n + 2] == ':') {
			*val = strtoull(p + n + 3, NULL, 10);
			return 0;
		}
	}
	return -ENOENT;
}

static void add_file(struct strbuf *sb, const char *prefix, const char *path,
		     const char *const *keys)
{
	char *text = mmf_read_text(path);

	mmf_sample_kv(sb, prefix, text, keys);
	free(text);
}

static void add_swaps(struct strbuf *sb)
{
	struct mmf_swap_info *list;
	int n = mmf_swap_list(&list);

	for (int i = 0; i < n; i++) {
		mmf_sb_puts(sb, ",\"swap.");
		for (const char *c = list[i].path; *c; c++)
			if (*c != '"' && *c != '\\' && (unsigned char)*c >= ' ')
				mmf_sb_add(sb, c, 1);
		mmf_sb_printf(sb, "\":%" PRIu64, list[i].used_kb);
	}
	if (n > 0)
		free(list);
}

static void add_cgroup(struct strbuf *sb, struct mmf_cgroup *cg)
{
	char path[PATH_MAX];
	uint64_t v;

	snprintf(path, sizeof(path), "%s/memory.stat", mmf_cg_path(cg));
	add_file(sb, "memcg", path, memstat_keys);
	snprintf(path, sizeof(path), "%s/memory.events", mmf_cg_path(cg));
	add_file(sb, "memcg.events", path, events_keys);
	/* v1: the limit hits and the OOM kills live elsewhere. */
	snprintf(path, sizeof(path), "%s/memory.oom_control", mmf_cg_path(cg));
	add_file(sb, "memcg.events", path, events_keys);
	snprintf(path, sizeof(path), "%s/memory.failcnt", mmf_cg_path(cg));
	if (mmf_sysfs_read_u64(path, &v) == 0)
		mmf_sb_printf(sb, ",\"memcg.events.max\":%" PRIu64, v);
}

void mmf_sample_take(struct strbuf *sb, double t, struct mmf_cgroup *cg)
{
	uint64_t v;

	mmf_sb_printf(sb, "{\"t\":%.3f", t);
	add_file(sb, "vmstat", "/proc/vmstat", vmstat_keys);
	add_file(sb, "meminfo", "/proc/meminfo", meminfo_keys);
	add_swaps(sb);
	if (cg)
		add_cgroup(sb, cg);
	for (const char *const *k = ksm_files; *k; k++) {
		char path[96];

		snprintf(path, sizeof(path), "/sys/kernel/mm/ksm/%s", *k);
		if (mmf_sysfs_read_u64(path, &v) == 0)
			mmf_sb_printf(sb, ",\"ksm.%s\":%" PRIu64, *k, v);
	}
	mmf_sb_puts(sb, "}");
}

/* ---- summary --------------------------------------------------------- */

/*
 * A summary counter: the sum of the keys that exist, or of alt where none
 * does (pgscan_anon/file are newer than the per-reclaimer counters, and
 * memcg reclaim shows only in them on recent kernels).
 */
static const struct counter {
	const char *label;
	const char *keys[4], *alt[4];
} counters[] = {
	{ .label = "pswpin", .keys = { "vmstat.pswpin" } },
	{ .label = "pswpout", .keys = { "vmstat.pswpout" } },
	{ .label = "pgscan", .keys = { "vmstat.pgscan_anon", "vmstat.pgscan_file" },
	  .alt = { "vmstat.pgscan_kswapd", "vmstat.pgscan_direct",
		   "vmstat.pgscan_khugepaged" } },
	{ .label = "pgsteal", .keys = { "vmstat.pgsteal_anon", "vmstat.pgsteal_file" },
	  .alt = { "vmstat.pgsteal_kswapd", "vmstat.pgsteal_direct",
		   "vmstat.pgsteal_khugepaged" } },
	{ .label = "pgfault", .keys = { "vmstat.pgfault" } },
	{ .label = "pgmajfault", .keys = { "vmstat.pgmajfault" } },
	{ .label = "thp_swpout", .keys = { "vmstat.thp_swpout" } },
	{ .label = "thp_split", .keys = { "vmstat.thp_split_page", "vmstat.thp_split_pmd" } },
	{ .label = "swap_ra", .keys = { "vmstat.swap_ra" } },
	{ .label = "oom_kill", .keys = { "vmstat.oom_kill" } },
	{ .label = "memcg_max_events", .keys = { "memcg.events.max" } },
	{ .label = "ksm_pages_scanned", .keys = { "ksm.pages_scanned" } },
};

static bool sum_keys(const char *line, const char *const *keys, uint64_t *sum)
{
	bool any = false;
	uint64_t v;

	*sum = 0;
	for (int i = 0; i < 4 && keys[i]; i++) {
		if (line && !mmf_sample_get(line, keys[i], &v)) {
			*sum += v;
			any = true;
		}
	}
	return any;
}

static bool counter_value(const char *line, const struct counter *c, uint64_t *sum)
{
	return sum_keys(line, c->keys, sum) || sum_keys(line, c->alt, sum);
}

void mmf_summary_init(struct mmf_summary *s)
{
	memset(s, 0, sizeof(*s));
}

void mmf_summary_add(struct mmf_summary *s, const char *line)
{
	uint64_t total, free_kb;
	double t;

	if (strncmp(line, "{\"t\":", 5))
		return;
	t = strtod(line + 5, NULL);
	if (!s->samples++) {
		s->first = mmf_xstrdup(line);
		s->t0 = t;
	}
	free(s->last);
	s->last = mmf_xstrdup(line);
	s->t1 = t;
	if (!mmf_sample_get(line, "meminfo.SwapTotal", &total) &&
	    !mmf_sample_get(line, "meminfo.SwapFree", &free_kb) && total >= free_kb)
		s->swap_peak_kb = MAX(s->swap_peak_kb, total - free_kb);
}

bool mmf_summary_swapped(const struct mmf_summary *s)
{
	uint64_t a, b;

	return s->samples > 1 && counter_value(s->first, &counters[1], &a) &&
	       counter_value(s->last, &counters[1], &b) && b > a;
}

void mmf_summary_format(const struct mmf_summary *s, struct strbuf *sb)
{
	if (s->samples < 2) {
		mmf_sb_printf(sb, "summary: %d sample(s), too few to say what the kernel did\n",
			  s->samples);
		return;
	}
	mmf_sb_printf(sb, "summary: %.0f s, %d samples:", s->t1 - s->t0, s->samples);
	for (size_t i = 0; i < ARRAY_SIZE(counters); i++) {
		uint64_t a, b;

		if (counter_value(s->first, &counters[i], &a) &&
		    counter_value(s->last, &counters[i], &b))
			mmf_sb_printf(sb, " %s +%" PRIu64, counters[i].label, b >= a ? b - a : 0);
		else
			mmf_sb_printf(sb, " %s n/a", counters[i].label);
	}
	mmf_sb_printf(sb, "; swap used peak %" PRIu64 " MiB\n", s->swap_peak_kb >> 10);
	if (!mmf_summary_swapped(s))
		mmf_sb_puts(sb, "summary: this run never reached swap: no page was swapped out\n");
}

void mmf_summary_free(struct mmf_summary *s)
{
	free(s->first);
	free(s->last);
	mmf_summary_init(s);
}
