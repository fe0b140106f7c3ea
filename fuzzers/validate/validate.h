/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Patch validation: a base and a patched kernel side by side in guests.
 * Reproducers and corpus programs run on both (fixed, regression, still
 * failing), the benchmarks run N times on both (Welch's t-test per metric,
 * noise called noise), and both are fuzzed for the same budget (titles seen
 * on the patched kernel only). The verdict is plain text fit for a mailing
 * list reply, and JSON.
 */
#ifndef MMF_VALIDATE_H
#define MMF_VALIDATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/bench.h"
#include "util/util.h"
#include "vm/vm.h"

enum { MMF_BASE, MMF_PATCHED, MMF_NR_SIDES };

struct mmf_validate_side {
	const char *src;	/* kernel image, or kernel tree to build */
	const char *patch;	/* applied to a copy of the tree, NULL: none */
	const char *append;	/* more kernel command line, NULL: none */
	const char *guest_args[8];	/* more options of the guest's server */
};

struct mmf_validate_opts {
	const struct mmf_vm_arch *arch;
	struct mmf_validate_side side[MMF_NR_SIDES];
	const char *store;	/* crash store whose reproducers run, NULL: none */
	const char *corpus;	/* directory of .mmf programs, NULL: none */
	const char *benches;	/* "all", "none" or NAME,NAME... */
	int runs;		/* benchmark runs per kernel */
	int attempts;		/* runs per reproducer and program per kernel */
	int64_t budget_ms;	/* fuzzing per kernel, 0: none */
	double alpha;		/* family-wise significance level */
	double min_change;	/* smaller relative changes are noise */
	const char *out;	/* guests' consoles, campaigns, verdict.{txt,json} */
	FILE *info;
};

/* Runs the validation; 0 no regression, 1 regression, -1 and err on failure. */
int mmf_validate(const struct mmf_validate_opts *o, char *err, size_t n);

/* ---- statistics (welch.c) --------------------------------------------- */

/* Regularized incomplete beta function I_x(a, b). */
double mmf_ibeta(double a, double b, double x);
/*
 * Two-sided p-value of Welch's unequal-variance t-test on two samples'
 * summaries; 1 with fewer than 2 samples a side, and for two samples
 * without variance, 1 if their means are equal, else 0.
 */
double mmf_welch_p(const struct mmf_stats *a, const struct mmf_stats *b);

/* ---- verdict (verdict.c) ---------------------------------------------- */

struct mmf_val_case {
	char *name;		/* "repro: TITLE" or "corpus: FILE" */
	char *title;		/* what counts as failing; NULL: any report */
	int hits[MMF_NR_SIDES], runs[MMF_NR_SIDES];
	const char *verdict;	/* fixed, regression, still failing, passes, error */
};

struct mmf_val_metric {
	char bench[32], name[32];
	const char *unit;
	bool higher_is_better;
	struct mmf_stats st[MMF_NR_SIDES];
	double p, change;	/* change: patched mean / base mean - 1 */
	const char *verdict;	/* better, worse, noise */
};

struct mmf_val_result {
	char *kernel[MMF_NR_SIDES];
	int nr_cases, nr_metrics;
	struct mmf_val_case *cases;
	struct mmf_val_metric *metrics;
	bool fuzzed;
	int nr_titles[MMF_NR_SIDES];
	char **only_patched;	/* titles the patched kernel gave and the base did not */
	int nr_only_patched;
	int regressions;	/* cases, worse metrics and new titles */
};

/* Judge cases and metrics (Holm-Bonferroni over the metrics); count regressions. */
void mmf_val_judge(struct mmf_val_result *r, double alpha, double min_change);
void mmf_val_text(const struct mmf_val_result *r, struct strbuf *sb);
void mmf_val_json(const struct mmf_val_result *r, struct strbuf *sb);
void mmf_val_free(struct mmf_val_result *r);

#endif
