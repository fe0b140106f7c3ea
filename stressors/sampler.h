/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampler: every second one JSON object per line (JSON lines) in
 * OUT/samples.jsonl with flat keys, "t" (seconds since the start), then
 * "vmstat.pswpout", "meminfo.SwapFree" (kB), "swap./dev/zram0" (kB used),
 * "memcg.pgscan", "memcg.events.oom_kill", "ksm.pages_scanned" ... A counter
 * the kernel lacks is left out, never written as 0. The summary compares
 * the first and the last sample.
 */
#ifndef MMF_STRESS_SAMPLER_H
#define MMF_STRESS_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#include "util/util.h"

struct mmf_cgroup;

/*
 * Append ,"prefix.KEY":VALUE for each "KEY VALUE" or "KEY: VALUE kB" line
 * of text whose KEY is in keys (NULL-terminated; "pgscan_*" matches a
 * prefix). Pure.
 */
void mmf_sample_kv(struct strbuf *sb, const char *prefix, const char *text,
		   const char *const *keys);
/* The number of "key" in a sample line: 0, or -ENOENT if absent. Pure. */
int mmf_sample_get(const char *line, const char *key, uint64_t *val);

/* One sample line (no newline) at t seconds; cg may be NULL. */
void mmf_sample_take(struct strbuf *sb, double t, struct mmf_cgroup *cg);

struct mmf_summary {
	int samples;
	double t0, t1;
	char *first, *last;
	uint64_t swap_peak_kb;
};

void mmf_summary_init(struct mmf_summary *s);
void mmf_summary_add(struct mmf_summary *s, const char *line);
/*
 * What happened between the first and the last sample: reclaim, swap and
 * large-folio counters, the peak of swap used, and plainly whether the run
 * reached swap at all. Pure.
 */
void mmf_summary_format(const struct mmf_summary *s, struct strbuf *sb);
/* Whether any page went out to swap. */
bool mmf_summary_swapped(const struct mmf_summary *s);
void mmf_summary_free(struct mmf_summary *s);

#endif
