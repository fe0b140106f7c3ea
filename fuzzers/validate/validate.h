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
#include "campaign/guestrepro.h"
#include "cover/focus.h"
#include "util/util.h"
#include "vm/vm.h"

enum { MMF_BASE, MMF_PATCHED, MMF_NR_SIDES };

struct mmf_validate_side {
	const char *src;	/* kernel image, or kernel tree to build */
	const char *patches[9];	/* applied in order to a copy of the tree, NULL-ended */
	const char *append;	/* more kernel command line, NULL: none */
	const char *guest_args[8];	/* more options of the guest's server */
};

struct mmf_validate_opts {
	const struct mmf_vm_arch *arch;
	struct mmf_validate_side side[MMF_NR_SIDES];
	const char *store;	/* crash store whose reproducers run, NULL: none */
	const char *corpus;	/* directory of .mmf programs, NULL: none */
	const char *seeds;	/* what fuzzing starts from: a directory, "none", NULL: corpus/ */
	const char *benches;	/* "auto", "all", "none" or NAME,NAME... */
	int runs;		/* benchmark runs per kernel; 0: until the intervals are narrow */
	int attempts;		/* runs per reproducer and program per kernel */
	int64_t budget_ms;	/* fuzzing per kernel, 0: none */
	int64_t repro_ms;	/* reproducing a patched-only title on the patched kernel, at most */
	int mutants;		/* mutated reproducers tried on the base besides the reproducer */
	int behaviour;		/* programs compared on both kernels, at most */
	const char *tested_by;	/* the Tested-by: line's "Name <address>" */
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

/* The t with two-sided tail p of Student's t with df degrees of freedom. */
double mmf_t_quantile(double df, double p);
/*
 * The 1 - alpha confidence interval of b's mean minus a's (Welch): 0, or
 * -1 with fewer than 2 samples a side.
 */
int mmf_welch_interval(const struct mmf_stats *a, const struct mmf_stats *b, double alpha,
		       double *lo, double *hi);

/* ---- what the patch changes (changes.c) -------------------------------- */

struct mmf_val_func {
	char *file, *name;
	bool init;		/* declared __init: runs only at boot */
	bool diff;		/* lines of the diff are in it */
	bool code;		/* its code differs between the two kernels */
	uint64_t lo, hi;	/* where it is in the patched kernel's text; 0, 0: nowhere */
	int programs;		/* fuzzing programs that reached it */
};

struct mmf_val_changes {
	char **files;
	int nr_files;
	struct mmf_val_func *funcs;
	int nr_funcs;
	struct mmf_focus file_text;	/* the text of the patch's files in the patched kernel */
	bool cover;		/* fuzzing recorded coverage: programs is known */
};

/*
 * The files and functions a series of unified diffs (patches, in order)
 * changes; source(file, arg) gives the text of file after the series
 * (malloc'ed; NULL: unknown, then its functions are not known from the
 * diff). 0, or -1 with a one-line reason in err[n].
 */
int mmf_val_changes_parse(const char *patches, char *(*source)(const char *file, void *arg),
			  void *arg, struct mmf_val_changes *c, char *err, size_t n);
/*
 * Add the functions whose size differs between the base and the patched
 * vmlinux or that only the patched one has, and where every changed
 * function and the patch's files are in the patched text. 0 or -1, err.
 */
int mmf_val_changes_code(struct mmf_val_changes *c, const char *base, const char *patched,
			 char *err, size_t n);
void mmf_val_changes_free(struct mmf_val_changes *c);

/* ---- the series (series.c) -------------------------------------------- */

struct mmf_val_series {
	int nr;			/* patches: messages (or plain files) with a diff */
	char **subject;		/* each one's Subject:, NULL: a plain diff has none */
};

/*
 * The patches in text: a plain diff, a git format-patch file or an mbox of
 * them; a message without a diff (a cover letter) is none. Returns nr.
 */
int mmf_val_series_parse(const char *text, struct mmf_val_series *s);
void mmf_val_series_free(struct mmf_val_series *s);

/* ---- the differential verdict (differ.c) ------------------------------- */

#define MMF_VAL_DIFF_ITEMS	8
#define MMF_VAL_DIFF_TEXT	160

/* A value the kernels disagree on, each consistently over its runs. */
struct mmf_val_diff_item {
	int si;			/* the statement; -1: the program's end (a counter) */
	char what[24];		/* "result", "pages after it", or the counter's name */
	char base[MMF_VAL_DIFF_TEXT], patched[MMF_VAL_DIFF_TEXT];
};

/* A program that reached the changed functions, run on both kernels. */
struct mmf_val_behaviour {
	char *program;		/* its file */
	char *stmt;		/* the first statement where the kernels part, NULL: none */
	int first;		/* its index, -1: they part only in the counters, or not */
	int runs[MMF_NR_SIDES];	/* traced runs that ended cleanly, per kernel */
	int nr_items;
	struct mmf_val_diff_item items[MMF_VAL_DIFF_ITEMS];
};

/*
 * Compare runs[s][0..nruns[s]) of program p on the two kernels (traces of
 * mmf_guest_repro_trace()): a result class, page states or counter that
 * every run of each kernel agrees on and that differs between the kernels
 * goes into b, by statement. Returns the number of such items.
 */
int mmf_val_differ(const struct mmf_prog *p, const struct mmf_guest_cover *const runs[MMF_NR_SIDES],
		   const int nruns[MMF_NR_SIDES], struct mmf_val_behaviour *b);

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
	double lo, hi;		/* its 1 - alpha confidence interval (of the means' difference / base mean) */
	bool has_interval;
	const char *verdict;	/* better, worse, noise */
};

/*
 * A title of the fuzzing. syz-diff's rules: patched-only when seen on the
 * patched kernel, never on the base in the same budget, reproduced on the
 * patched kernel, and neither the reproducer nor its mutants bring it
 * back on the base; pre-existing when the base gave it too.
 */
struct mmf_val_finding {
	char *title;
	const char *verdict;	/* patched-only, pre-existing, not reproduced */
	bool on_base;		/* the base's fuzzing found it too */
	int repro_hits, repro_runs;	/* the reproducer on the patched kernel */
	int base_hits, base_runs;	/* it and its mutants on the base */
	char *repro;		/* the reproducer's repro.prog, NULL: none */
};

/* What a benchmark's run on the patched kernel reached (--bench auto). */
struct mmf_val_bench_reach {
	const char *bench;
	char *funcs;		/* the changed functions it reached, ", "-joined; NULL: no run */
	char *ended;		/* the title that ended its run, NULL: none */
};

struct mmf_val_result {
	char *kernel[MMF_NR_SIDES];
	/* what was tested, for the reply */
	char *patches;		/* the patches' files, NULL: two kernels given */
	struct mmf_val_series series;	/* the patches in them */
	char *kcov_files;	/* the mm/ files built with KCOV for the reach, NULL: none */
	const char *engine;	/* the fuzzing engine */
	int64_t budget_ms;
	int runs, attempts;
	double alpha;		/* of the intervals and the tests */
	bool has_changes;
	struct mmf_val_changes changes;
	struct mmf_val_finding *findings;
	int nr_findings;
	const char *tested_by;
	int nr_cases, nr_metrics;
	struct mmf_val_case *cases;
	struct mmf_val_metric *metrics;
	bool bench_auto;	/* the benchmarks were chosen by their reach */
	/* the programs that reached the changed functions, run on both kernels */
	bool differed;
	struct mmf_val_behaviour *behaviour;
	int nr_behaviour;
	struct mmf_val_bench_reach *bench_reach;
	int nr_bench_reach;
	bool fuzzed;
	int nr_titles[MMF_NR_SIDES];
	int regressions;	/* cases, worse metrics and patched-only findings */
	int unconfirmed;	/* patched only, not reproduced: no Tested-by */
};

/* Judge cases and metrics (Holm-Bonferroni over the metrics); count regressions. */
void mmf_val_judge(struct mmf_val_result *r, double alpha, double min_change);
void mmf_val_text(const struct mmf_val_result *r, struct strbuf *sb);
void mmf_val_json(const struct mmf_val_result *r, struct strbuf *sb);
void mmf_val_free(struct mmf_val_result *r);

#endif
