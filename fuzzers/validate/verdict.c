// SPDX-License-Identifier: GPL-2.0
/* The verdict: judging, then plain text for a mailing list, and JSON. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "validate/validate.h"

static const char *case_verdict(const struct mmf_val_case *c)
{
	bool b = c->hits[MMF_BASE] > 0, p = c->hits[MMF_PATCHED] > 0;

	if (!c->runs[MMF_BASE] || !c->runs[MMF_PATCHED])
		return "error";
	return b && p ? "still failing" : b ? "fixed" : p ? "regression" : "passes";
}

static int by_p(const void *a, const void *b)
{
	const struct mmf_val_metric *x = *(struct mmf_val_metric *const *)a;
	const struct mmf_val_metric *y = *(struct mmf_val_metric *const *)b;

	return (x->p > y->p) - (x->p < y->p);
}

void mmf_val_judge(struct mmf_val_result *r, double alpha, double min_change)
{
	struct mmf_val_metric **order = mmf_xcalloc(r->nr_metrics + 1, sizeof(*order));
	bool rejecting = true;

	r->regressions = r->nr_only_patched;
	for (int i = 0; i < r->nr_cases; i++) {
		r->cases[i].verdict = case_verdict(&r->cases[i]);
		r->regressions += !strcmp(r->cases[i].verdict, "regression");
	}
	for (int i = 0; i < r->nr_metrics; i++) {
		struct mmf_val_metric *m = &r->metrics[i];
		double base = m->st[MMF_BASE].mean, pat = m->st[MMF_PATCHED].mean;

		m->p = mmf_welch_p(&m->st[MMF_BASE], &m->st[MMF_PATCHED]);
		m->change = base != 0 ? pat / base - 1 : pat != 0 ? INFINITY : 0;
		m->verdict = "noise";
		order[i] = m;
	}
	/*
	 * Holm-Bonferroni: many metrics at once would otherwise find a
	 * "significant" one by chance; a change too small to matter is
	 * noise however confident the test is.
	 */
	qsort(order, r->nr_metrics, sizeof(*order), by_p);
	for (int i = 0; i < r->nr_metrics && rejecting; i++) {
		struct mmf_val_metric *m = order[i];
		bool up = m->change > 0;

		rejecting = m->p < alpha / (r->nr_metrics - i);
		if (!rejecting || fabs(m->change) < min_change)
			continue;
		m->verdict = up == m->higher_is_better ? "better" : "worse";
		r->regressions += up != m->higher_is_better;
	}
	free(order);
}

void mmf_val_text(const struct mmf_val_result *r, struct strbuf *sb)
{
	static const char *const side[] = { "base", "patched" };

	mmf_sb_printf(sb, "mmfuzz validate: %s\n\n", r->regressions ? "REGRESSED" : "no regression");
	for (int s = 0; s < MMF_NR_SIDES; s++)
		mmf_sb_printf(sb, "  %-8s %s\n", side[s], r->kernel[s]);
	if (r->nr_cases) {
		mmf_sb_puts(sb, "\nReproducers and programs (hits/runs):\n");
		for (int i = 0; i < r->nr_cases; i++) {
			const struct mmf_val_case *c = &r->cases[i];

			mmf_sb_printf(sb, "  %-14s base %d/%d  patched %d/%d  %s\n", c->verdict,
				  c->hits[0], c->runs[0], c->hits[1], c->runs[1], c->name);
		}
	}
	if (r->nr_metrics) {
		mmf_sb_puts(sb, "\nBenchmarks (mean +- stddev, n; Welch's t-test):\n");
		for (int i = 0; i < r->nr_metrics; i++) {
			const struct mmf_val_metric *m = &r->metrics[i];

			mmf_sb_printf(sb, "  %-14s %-20s base %10.2f +- %-8.2f patched %10.2f +- %-8.2f"
				  " %s %+6.1f%%  p=%.3g  %s\n", m->bench, m->name,
				  m->st[0].mean, m->st[0].stddev, m->st[1].mean, m->st[1].stddev,
				  m->unit, 100 * m->change, m->p, m->verdict);
		}
	}
	if (r->fuzzed) {
		mmf_sb_printf(sb, "\nFuzzing, same budget: %d title(s) on base, %d on patched,"
			  " %d on patched only\n", r->nr_titles[0], r->nr_titles[1],
			  r->nr_only_patched);
		for (int i = 0; i < r->nr_only_patched; i++)
			mmf_sb_printf(sb, "  %s\n", r->only_patched[i]);
	}
}

void mmf_val_json(const struct mmf_val_result *r, struct strbuf *sb)
{
	mmf_sb_printf(sb, "{\"regressed\":%s,\"regressions\":%d,\"base\":",
		  r->regressions ? "true" : "false", r->regressions);
	mmf_sb_json_str(sb, r->kernel[0]);
	mmf_sb_puts(sb, ",\"patched\":");
	mmf_sb_json_str(sb, r->kernel[1]);
	mmf_sb_puts(sb, ",\"cases\":[");
	for (int i = 0; i < r->nr_cases; i++) {
		const struct mmf_val_case *c = &r->cases[i];

		mmf_sb_puts(sb, i ? ",{\"name\":" : "{\"name\":");
		mmf_sb_json_str(sb, c->name);
		mmf_sb_puts(sb, ",\"verdict\":");
		mmf_sb_json_str(sb, c->verdict);
		mmf_sb_printf(sb, ",\"base\":{\"hits\":%d,\"runs\":%d},\"patched\":{\"hits\":%d,"
			  "\"runs\":%d}}", c->hits[0], c->runs[0], c->hits[1], c->runs[1]);
	}
	mmf_sb_puts(sb, "],\"metrics\":[");
	for (int i = 0; i < r->nr_metrics; i++) {
		const struct mmf_val_metric *m = &r->metrics[i];

		mmf_sb_puts(sb, i ? ",{\"bench\":" : "{\"bench\":");
		mmf_sb_json_str(sb, m->bench);
		mmf_sb_puts(sb, ",\"metric\":");
		mmf_sb_json_str(sb, m->name);
		mmf_sb_puts(sb, ",\"unit\":");
		mmf_sb_json_str(sb, m->unit);
		for (int s = 0; s < MMF_NR_SIDES; s++)
			mmf_sb_printf(sb, ",\"%s\":{\"n\":%d,\"mean\":%.6g,\"stddev\":%.6g,"
				  "\"median\":%.6g}", s ? "patched" : "base", m->st[s].n,
				  m->st[s].mean, m->st[s].stddev, m->st[s].median);
		mmf_sb_printf(sb, ",\"change\":%.6g,\"p\":%.6g,\"verdict\":",
			  isfinite(m->change) ? m->change : 1e308, m->p);
		mmf_sb_json_str(sb, m->verdict);
		mmf_sb_puts(sb, "}");
	}
	mmf_sb_printf(sb, "],\"fuzzed\":%s,\"titles\":{\"base\":%d,\"patched\":%d},"
		  "\"only_patched\":[", r->fuzzed ? "true" : "false", r->nr_titles[0],
		  r->nr_titles[1]);
	for (int i = 0; i < r->nr_only_patched; i++) {
		if (i)
			mmf_sb_puts(sb, ",");
		mmf_sb_json_str(sb, r->only_patched[i]);
	}
	mmf_sb_puts(sb, "]}\n");
}

void mmf_val_free(struct mmf_val_result *r)
{
	for (int i = 0; i < r->nr_cases; i++) {
		free(r->cases[i].name);
		free(r->cases[i].title);
	}
	for (int i = 0; i < r->nr_only_patched; i++)
		free(r->only_patched[i]);
	for (int s = 0; s < MMF_NR_SIDES; s++)
		free(r->kernel[s]);
	free(r->cases);
	free(r->metrics);
	free(r->only_patched);
	memset(r, 0, sizeof(*r));
}
