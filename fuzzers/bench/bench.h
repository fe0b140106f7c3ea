/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The seed benchmarks: the numbers mm patch authors quote, each a workload
 * of its own, scaled to the machine's memory and CPUs. One info struct per
 * benchmark in mmf_benches[]; a run fills named metrics.
 *
 * Uses only sys and util: the caller provides swap (a benchmark that needs
 * it says so and fails with -ENOSPC without it).
 */
#ifndef MMF_BENCH_H
#define MMF_BENCH_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;
struct mmf_journal;

#define MMF_BENCH_MAX_METRICS	16

struct mmf_metric {
	char name[32];		/* e.g. "elapsed_ms", "pswpin" */
	const char *unit;	/* static: "ms", "us", "pages", "faults", "ns/call" */
	double value;
	bool higher_is_better;	/* false for times and counts of work */
};

struct mmf_bench_result {
	int nr;
	struct mmf_metric m[MMF_BENCH_MAX_METRICS];
};

struct mmf_bench_ctx {
	size_t mem_bytes;	/* how much memory the workload may touch in all */
	int cpus;		/* CPUs to use at most */
	int nr_swaps;		/* swap devices the caller set up (for the exit bench) */
	const char *const *swaps;	/* their paths */
	const int *swap_prios;
	/*
	 * Where knob changes are journaled (pageout-64k's THP sizes); NULL: the
	 * knobs stay as they are and a benchmark needing a change fails with
	 * -EOPNOTSUPP.
	 */
	struct mmf_journal *j;
	/*
	 * Called in every task of the workload as it starts (true) and before
	 * it ends (false), the task of mmf_bench_run() too: the guest server
	 * traces the kernel's coverage there. NULL: nothing.
	 */
	void (*task)(bool start);
};

struct mmf_bench_info {
	const char *name;	/* "madv-free", ... */
	const char *help;	/* one line: what it measures */
	bool needs_swap;
	/* One run: 0 and res filled, or -errno (message via mmf_warnx_). */
	int (*run)(const struct mmf_bench_ctx *c, struct mmf_bench_result *res);
};

extern const struct mmf_bench_info mmf_benches[];
extern const size_t mmf_nr_benches;

const struct mmf_bench_info *mmf_bench_find(const char *name);
/* One run of b: b->run(c, res) between c->task's calls. */
int mmf_bench_run(const struct mmf_bench_info *b, const struct mmf_bench_ctx *c,
		  struct mmf_bench_result *res);
/* The context for this machine: memory and CPUs from sysconf, swaps as given. */
void mmf_bench_ctx_default(struct mmf_bench_ctx *c);

/* Add a metric to res (ignored past MMF_BENCH_MAX_METRICS). */
void mmf_bench_add(struct mmf_bench_result *res, const char *name, const char *unit,
		   double value, bool higher_is_better);

/*
 * One run as one JSON line: {"bench":"NAME","run":I,"metrics":{"elapsed_ms":
 * {"value":V,"unit":"ms","better":"lower"},...}}, and back (0, or -1 when
 * the line is not one; name gets the bench name, NAME_MAX bytes).
 */
void mmf_bench_json(const char *bench, int run, const struct mmf_bench_result *res,
		    struct strbuf *sb);
int mmf_bench_parse(const char *line, char *name, size_t n, struct mmf_bench_result *res);

/* Summary of samples: mean, sample standard deviation, median. */
struct mmf_stats {
	int n;
	double mean, stddev, median;
};

void mmf_stats_of(const double *v, int n, struct mmf_stats *st);

#endif
