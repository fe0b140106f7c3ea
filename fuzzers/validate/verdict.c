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
	int family = 0;

	r->alpha = alpha;
	r->regressions = r->unconfirmed = 0;
	for (int i = 0; i < r->nr_findings; i++) {
		r->regressions += !strcmp(r->findings[i].verdict, "patched-only");
		r->unconfirmed += !strcmp(r->findings[i].verdict, "not reproduced");
	}
	for (int i = 0; i < r->nr_cases; i++) {
		r->cases[i].verdict = case_verdict(&r->cases[i]);
		r->regressions += !strcmp(r->cases[i].verdict, "regression");
	}
	for (int i = 0; i < r->nr_metrics; i++) {
		struct mmf_val_metric *m = &r->metrics[i];
		double base = m->st[MMF_BASE].mean, pat = m->st[MMF_PATCHED].mean;

		m->p = mmf_welch_p(&m->st[MMF_BASE], &m->st[MMF_PATCHED]);
		m->change = base != 0 ? pat / base - 1 : pat != 0 ? INFINITY : 0;
		/* Relative to the base's mean, taken as known: a first-order interval. */
		m->has_interval = base != 0 && !mmf_welch_interval(&m->st[MMF_BASE],
								   &m->st[MMF_PATCHED], alpha,
								   &m->lo, &m->hi);
		if (m->has_interval) {
			m->lo /= fabs(base);
			m->hi /= fabs(base);
		}
		m->verdict = "noise";
		/* No run of a side finished (the kernel ended them): nothing to compare. */
		if (!m->st[MMF_BASE].n || !m->st[MMF_PATCHED].n) {
			m->verdict = "unmeasured";
			m->has_interval = false;
			continue;
		}
		/* One value on both sides, every run: nothing to test, no hypothesis. */
		if (m->st[MMF_BASE].stddev == 0 && m->st[MMF_PATCHED].stddev == 0 && base == pat)
			continue;
		order[family++] = m;
	}
	/*
	 * Holm-Bonferroni: many metrics at once would otherwise find a
	 * "significant" one by chance; a change too small to matter is
	 * noise however confident the test is.
	 */
	qsort(order, family, sizeof(*order), by_p);
	for (int i = 0; i < family && rejecting; i++) {
		struct mmf_val_metric *m = order[i];
		bool up = m->change > 0;

		rejecting = m->p < alpha / (family - i);
		if (!rejecting || fabs(m->change) < min_change)
			continue;
		m->verdict = up == m->higher_is_better ? "better" : "worse";
		r->regressions += up != m->higher_is_better;
	}
	free(order);
}

/* How many of the changed functions fuzzing reached, and which it did not. */
static void text_changes(const struct mmf_val_result *r, struct strbuf *sb)
{
	const struct mmf_val_changes *c = &r->changes;
	int reached = 0, programs = 0;

	mmf_sb_printf(sb, "\nWhat the patch changes: %d file(s)", c->nr_files);
	for (int i = 0; i < c->nr_files; i++)
		mmf_sb_printf(sb, "%s%s", i ? ", " : ": ", c->files[i]);
	for (int i = 0; i < c->nr_funcs; i++) {
		reached += c->funcs[i].programs > 0;
		programs += c->funcs[i].programs;
	}
	mmf_sb_printf(sb, "\n  %d function(s) changed", c->nr_funcs);
	if (c->cover && r->fuzzed)
		mmf_sb_printf(sb, "; fuzzing reached %d, in %d program(s)", reached, programs);
	else if (r->fuzzed)
		mmf_sb_puts(sb, "; reach unknown (the patched kernel has no KCOV)");
	mmf_sb_puts(sb, "\n");
	for (int i = 0; i < c->nr_funcs; i++) {
		const struct mmf_val_func *f = &c->funcs[i];
		const char *how = f->diff && f->code ? "diff, code" : f->diff ? "diff" : "code";

		if (c->cover && r->fuzzed)
			mmf_sb_printf(sb, "  %-12s", f->programs ? "reached" : "not reached");
		else
			mmf_sb_puts(sb, "  ");
		mmf_sb_printf(sb, " %s (%s; %s)", f->name, f->file, how);
		if (f->programs)
			mmf_sb_printf(sb, ", %d program(s)", f->programs);
		if (f->init)
			mmf_sb_puts(sb, ", init code: runs only at boot");
		else if (!f->hi)
			mmf_sb_puts(sb, ", no code of its own in the kernel text (inlined?)");
		mmf_sb_puts(sb, "\n");
	}
}

/* Which benchmarks ran: those whose run on the patched kernel reached a changed function. */
static void text_bench_reach(const struct mmf_val_result *r, struct strbuf *sb)
{
	int chosen = 0;

	mmf_sb_puts(sb, "\nBenchmarks chosen by what they reach on the patched kernel (KCOV):\n");
	for (int i = 0; i < r->nr_bench_reach; i++) {
		const struct mmf_val_bench_reach *b = &r->bench_reach[i];
		bool ran = b->funcs && *b->funcs;

		chosen += ran || b->ended;
		if (b->ended)
			mmf_sb_printf(sb, "  %-14s its traced run ended in \"%s\": run\n", b->bench,
				      b->ended);
		else
			mmf_sb_printf(sb, "  %-14s %s%s\n", b->bench, ran ? "reaches " : "",
				      ran ? b->funcs : b->funcs ? "reaches no changed function: not run" :
				      "its traced run failed: not run");
	}
	if (!chosen)
		mmf_sb_puts(sb, "  none ran (--bench all runs every benchmark)\n");
}

static void text_findings(const struct mmf_val_result *r, struct strbuf *sb)
{
	mmf_sb_printf(sb, "\nFuzzing, %llds per kernel (%s): %d title(s) on base, %d on patched\n",
		  (long long)r->budget_ms / 1000, r->engine ? r->engine : "mmfuzz",
		  r->nr_titles[0], r->nr_titles[1]);
	for (int i = 0; i < r->nr_findings; i++) {
		const struct mmf_val_finding *f = &r->findings[i];

		mmf_sb_printf(sb, "  %-14s %s\n", f->verdict, f->title);
		if (f->on_base)
			mmf_sb_puts(sb, "                 seen while fuzzing both kernels\n");
		else if (f->repro)
			mmf_sb_printf(sb, "                 reproduced on patched %d/%d; on base, the"
				  " reproducer and its mutants %d/%d\n                 reproducer: %s\n",
				  f->repro_hits, f->repro_runs, f->base_hits, f->base_runs, f->repro);
		else
			mmf_sb_puts(sb, "                 seen on patched only; no reproducer was found\n");
	}
}

/* The differential verdict: apart from crashes, for the reviewer to judge. */
static void text_behaviour(const struct mmf_val_result *r, struct strbuf *sb)
{
	int changed = 0, compared = 0;

	for (int i = 0; i < r->nr_behaviour; i++) {
		changed += r->behaviour[i].nr_items > 0;
		compared += r->behaviour[i].runs[0] >= 2 && r->behaviour[i].runs[1] >= 2;
	}
	mmf_sb_printf(sb, "\nBehaviour: %d program(s) that reached a changed function, %d run(s)"
		      " each on each kernel; a value counts where every run of a kernel agrees\n",
		      r->nr_behaviour, r->attempts);
	if (!r->nr_behaviour)
		mmf_sb_puts(sb, "  none to compare: fuzzing kept no program that reached one\n");
	else if (!changed)
		mmf_sb_printf(sb, "  no behaviour change (%d compared)\n", compared);
	else
		mmf_sb_printf(sb, "  BEHAVIOUR CHANGED in %d of %d: for the reviewer to judge, not a"
			      " regression\n", changed, r->nr_behaviour);
	for (int i = 0; i < r->nr_behaviour; i++) {
		const struct mmf_val_behaviour *b = &r->behaviour[i];

		if (!b->nr_items)
			continue;
		mmf_sb_printf(sb, "  %s\n", b->program);
		if (b->stmt)
			mmf_sb_printf(sb, "    the kernels part at statement %d: %s\n", b->first,
				      b->stmt);
		for (int k = 0; k < b->nr_items; k++) {
			const struct mmf_val_diff_item *it = &b->items[k];

			if (it->si >= 0)
				mmf_sb_printf(sb, "    statement %d, %s: base %s; patched %s\n", it->si,
					      it->what, it->base, it->patched);
			else
				mmf_sb_printf(sb, "    at the end, %s: base %s; patched %s\n", it->what,
					      it->base, it->patched);
		}
	}
}

void mmf_val_text(const struct mmf_val_result *r, struct strbuf *sb)
{
	static const char *const side[] = { "base", "patched" };

	mmf_sb_printf(sb, "mmfuzz validate: %s\n\n", r->regressions ? "REGRESSED" :
		      r->unconfirmed ? "no regression confirmed" : "no regression");
	mmf_sb_puts(sb, "What was tested:\n");
	for (int s = 0; s < MMF_NR_SIDES; s++)
		mmf_sb_printf(sb, "  %-8s %s\n", side[s], r->kernel[s]);
	if (r->patches)
		mmf_sb_printf(sb, "  %-8s %s\n", "patches", r->patches);
	for (int i = 0; i < r->series.nr; i++)
		if (r->series.subject[i])
			mmf_sb_printf(sb, "  %-8s %d/%d: %s\n", "", i + 1, r->series.nr,
				      r->series.subject[i]);
	if (r->kcov_files)
		mmf_sb_printf(sb, "  %-8s %s (both kernels, whatever mm/Makefile says: the reach)\n",
			      "KCOV in", r->kcov_files);
	mmf_sb_printf(sb, "  %d run(s) of each reproducer and program per kernel", r->attempts);
	if (r->nr_metrics)
		mmf_sb_printf(sb, ", %d benchmark run(s) per kernel, the kernels in turn, a boot each",
			      r->metrics[0].st[0].n);
	if (r->fuzzed)
		mmf_sb_printf(sb, ", %llds of fuzzing per kernel", (long long)r->budget_ms / 1000);
	mmf_sb_puts(sb, "\n");
	if (r->has_changes)
		text_changes(r, sb);
	if (r->nr_cases) {
		mmf_sb_puts(sb, "\nReproducers, programs and benchmarks a kernel ended (hits/runs):\n");
		for (int i = 0; i < r->nr_cases; i++) {
			const struct mmf_val_case *c = &r->cases[i];

			mmf_sb_printf(sb, "  %-14s base %d/%d  patched %d/%d  %s\n", c->verdict,
				  c->hits[0], c->runs[0], c->hits[1], c->runs[1], c->name);
		}
	}
	if (r->bench_auto)
		text_bench_reach(r, sb);
	if (r->nr_metrics) {
		mmf_sb_printf(sb, "\nBenchmarks (mean +- stddev; the change with its %.0f%% interval;"
			      " Welch's t-test):\n", 100 * (1 - r->alpha));
		for (int i = 0; i < r->nr_metrics; i++) {
			const struct mmf_val_metric *m = &r->metrics[i];
			char ci[48] = "";

			if (!strcmp(m->verdict, "unmeasured")) {
				mmf_sb_printf(sb, "  %-14s %-20s %s: no run finished (see above)\n",
					      m->bench, m->name, m->st[MMF_BASE].n ? "patched" : "base");
				continue;
			}
			if (m->has_interval)
				snprintf(ci, sizeof(ci), " [%+.1f%%, %+.1f%%]", 100 * m->lo,
					 100 * m->hi);
			mmf_sb_printf(sb, "  %-14s %-20s base %10.2f +- %-8.2f patched %10.2f +- %-8.2f"
				  " %s %+6.1f%%%s  p=%.3g  %s\n", m->bench, m->name,
				  m->st[0].mean, m->st[0].stddev, m->st[1].mean, m->st[1].stddev,
				  m->unit, 100 * m->change, ci, m->p, m->verdict);
		}
	}
	if (r->fuzzed)
		text_findings(r, sb);
	if (r->differed)
		text_behaviour(r, sb);
	else if (r->fuzzed && r->changes.cover && r->attempts < 2)
		mmf_sb_printf(sb, "\nBehaviour: not compared (--attempts %d: a kernel's value is what"
			      " two runs or more agree on)\n", r->attempts);
	/* A Tested-by: vouches for the patch: only when nothing regressed or is in doubt. */
	if (!r->regressions && !r->unconfirmed && r->tested_by)
		mmf_sb_printf(sb, "\nTested-by: %s\n", r->tested_by);
}

void mmf_val_json(const struct mmf_val_result *r, struct strbuf *sb)
{
	mmf_sb_printf(sb, "{\"regressed\":%s,\"regressions\":%d,\"base\":",
		  r->regressions ? "true" : "false", r->regressions);
	mmf_sb_json_str(sb, r->kernel[0]);
	mmf_sb_puts(sb, ",\"patched\":");
	mmf_sb_json_str(sb, r->kernel[1]);
	mmf_sb_puts(sb, ",\"subjects\":[");
	for (int i = 0; i < r->series.nr; i++) {
		if (i)
			mmf_sb_puts(sb, ",");
		if (r->series.subject[i])
			mmf_sb_json_str(sb, r->series.subject[i]);
		else
			mmf_sb_puts(sb, "null");
	}
	mmf_sb_printf(sb, "],\"bench_auto\":%s,\"bench_reach\":[", r->bench_auto ? "true" : "false");
	for (int i = 0; i < r->nr_bench_reach; i++) {
		mmf_sb_puts(sb, i ? ",{\"bench\":" : "{\"bench\":");
		mmf_sb_json_str(sb, r->bench_reach[i].bench);
		mmf_sb_puts(sb, ",\"reaches\":");
		if (r->bench_reach[i].funcs)
			mmf_sb_json_str(sb, r->bench_reach[i].funcs);
		else
			mmf_sb_puts(sb, "null");
		mmf_sb_puts(sb, ",\"ended\":");
		if (r->bench_reach[i].ended)
			mmf_sb_json_str(sb, r->bench_reach[i].ended);
		else
			mmf_sb_puts(sb, "null");
		mmf_sb_puts(sb, "}");
	}
	mmf_sb_puts(sb, "],\"cases\":[");
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
		mmf_sb_printf(sb, ",\"change\":%.6g,\"p\":%.6g,",
			  isfinite(m->change) ? m->change : 1e308, m->p);
		if (m->has_interval)
			mmf_sb_printf(sb, "\"interval\":[%.6g,%.6g],", m->lo, m->hi);
		mmf_sb_puts(sb, "\"verdict\":");
		mmf_sb_json_str(sb, m->verdict);
		mmf_sb_puts(sb, "}");
	}
	mmf_sb_printf(sb, "],\"fuzzed\":%s,\"titles\":{\"base\":%d,\"patched\":%d},"
		  "\"findings\":[", r->fuzzed ? "true" : "false", r->nr_titles[0],
		  r->nr_titles[1]);
	for (int i = 0; i < r->nr_findings; i++) {
		const struct mmf_val_finding *f = &r->findings[i];

		mmf_sb_puts(sb, i ? ",{\"title\":" : "{\"title\":");
		mmf_sb_json_str(sb, f->title);
		mmf_sb_puts(sb, ",\"verdict\":");
		mmf_sb_json_str(sb, f->verdict);
		mmf_sb_printf(sb, ",\"on_base\":%s,\"repro\":{\"hits\":%d,\"runs\":%d},"
			  "\"base\":{\"hits\":%d,\"runs\":%d}}", f->on_base ? "true" : "false",
			  f->repro_hits, f->repro_runs, f->base_hits, f->base_runs);
	}
	mmf_sb_printf(sb, "],\"differed\":%s,\"behaviour\":[", r->differed ? "true" : "false");
	for (int i = 0; i < r->nr_behaviour; i++) {
		const struct mmf_val_behaviour *b = &r->behaviour[i];

		mmf_sb_puts(sb, i ? ",{\"program\":" : "{\"program\":");
		mmf_sb_json_str(sb, b->program);
		mmf_sb_printf(sb, ",\"runs\":{\"base\":%d,\"patched\":%d},\"first\":%d,"
			      "\"differences\":[", b->runs[0], b->runs[1], b->first);
		for (int k = 0; k < b->nr_items; k++) {
			const struct mmf_val_diff_item *it = &b->items[k];

			mmf_sb_printf(sb, "%s{\"statement\":%d,\"what\":", k ? "," : "", it->si);
			mmf_sb_json_str(sb, it->what);
			mmf_sb_puts(sb, ",\"base\":");
			mmf_sb_json_str(sb, it->base);
			mmf_sb_puts(sb, ",\"patched\":");
			mmf_sb_json_str(sb, it->patched);
			mmf_sb_puts(sb, "}");
		}
		mmf_sb_puts(sb, "]}");
	}
	mmf_sb_puts(sb, "],\"changes\":{\"files\":[");
	for (int i = 0; i < r->changes.nr_files; i++) {
		if (i)
			mmf_sb_puts(sb, ",");
		mmf_sb_json_str(sb, r->changes.files[i]);
	}
	mmf_sb_printf(sb, "],\"cover\":%s,\"functions\":[", r->changes.cover ? "true" : "false");
	for (int i = 0; i < r->changes.nr_funcs; i++) {
		const struct mmf_val_func *f = &r->changes.funcs[i];

		mmf_sb_puts(sb, i ? ",{\"name\":" : "{\"name\":");
		mmf_sb_json_str(sb, f->name);
		mmf_sb_puts(sb, ",\"file\":");
		mmf_sb_json_str(sb, f->file);
		mmf_sb_printf(sb, ",\"diff\":%s,\"code\":%s,\"init\":%s,\"programs\":%d}",
			  f->diff ? "true" : "false", f->code ? "true" : "false",
			  f->init ? "true" : "false", f->programs);
	}
	mmf_sb_puts(sb, "]}}\n");
}

void mmf_val_free(struct mmf_val_result *r)
{
	for (int i = 0; i < r->nr_cases; i++) {
		free(r->cases[i].name);
		free(r->cases[i].title);
	}
	for (int i = 0; i < r->nr_findings; i++) {
		free(r->findings[i].title);
		free(r->findings[i].repro);
	}
	mmf_val_changes_free(&r->changes);
	mmf_val_series_free(&r->series);
	free(r->kcov_files);
	for (int i = 0; i < r->nr_bench_reach; i++) {
		free(r->bench_reach[i].funcs);
		free(r->bench_reach[i].ended);
	}
	free(r->bench_reach);
	for (int i = 0; i < r->nr_behaviour; i++) {
		free(r->behaviour[i].program);
		free(r->behaviour[i].stmt);
	}
	free(r->behaviour);
	free(r->patches);
	for (int s = 0; s < MMF_NR_SIDES; s++)
		free(r->kernel[s]);
	free(r->cases);
	free(r->metrics);
	free(r->findings);
	memset(r, 0, sizeof(*r));
}
