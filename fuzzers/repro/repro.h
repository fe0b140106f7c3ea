/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reproduce and minimize: from the programs that ran around a crash, find
 * the program, or the set run concurrently, that brings the same title
 * back, then make it as small as it can be while it still does.
 *
 * Pure search over programs: running them is the caller's (natively with
 * the executor, or in a fresh guest), through mmf_repro_ops.
 */
#ifndef MMF_REPRO_H
#define MMF_REPRO_H

#include "model/prog.h"
#include "util/util.h"

/*
 * With mmf_repro_ops.progress (and log), a line on log every
 * MMF_REPRO_PROGRESS_MS while programs run, in the campaigns' manner:
 * "[    30s] runs 12 (0.40/s) hits 5, 1m30s left" (the time left when
 * there is a deadline). Zeroed before the search; counts every run.
 */
#define MMF_REPRO_PROGRESS_MS	10000
struct mmf_repro_progress {
	uint64_t t0_ns, shown_ns;
	int runs, hits;
};

struct mmf_repro_ops {
	/*
	 * Run progs[0..n) concurrently once; 1 when a report titled title
	 * appeared, 0 when not, -1 when they could not be run.
	 */
	int (*run)(void *ctx, const struct mmf_prog *progs, int n, const char *title);
	void *ctx;
	int attempts;		/* runs per candidate for its hit rate */
	int min_attempts;	/* runs per minimization step (stops at a hit) */
	int max_steps;		/* minimization steps at most */
	/*
	 * mmf_now_ns() after which no new candidate is tried, 0 for none: the
	 * search gives up, minimization keeps what it has, and the hit rate of
	 * a reproducer found is still measured.
	 */
	uint64_t deadline_ns;
	void (*log)(void *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
	struct mmf_repro_progress *progress;	/* NULL: no progress lines */
};

struct mmf_repro_result {
	int found;		/* 1: reproduced */
	int nr_progs;		/* programs run concurrently */
	struct mmf_prog progs[8];	/* the reproducer, minimized */
	int hits, runs;		/* hit rate of the minimized reproducer */
	int calls_before, calls_after;
	int steps;		/* minimization steps tried */
};

#define MMF_REPRO_MAX_PROGS 8

static inline bool mmf_repro_expired(const struct mmf_repro_ops *ops)
{
	return ops->deadline_ns && mmf_now_ns() >= ops->deadline_ns;
}

/*
 * Hits in attempts runs of progs[0..n), *runs the runs made; with
 * stop_at_hit it stops at the first hit or the deadline. -1 when the
 * runner failed.
 */
int mmf_repro_hits(const struct mmf_repro_ops *ops, const struct mmf_prog *progs, int n,
		   const char *title, int attempts, bool stop_at_hit, int *runs);

/* progs[n - 1] ran last. Returns 0, or -1 when the runner failed. */
int mmf_repro(const struct mmf_repro_ops *ops, const struct mmf_prog *progs, int n,
	      const char *title, struct mmf_repro_result *res);

/* Minimize one program in place while ops->run still reports title. */
int mmf_repro_minimize(const struct mmf_repro_ops *ops, struct mmf_prog *p, const char *title,
		       int *steps);

/*
 * Reproduction in a guest, over a control port: once it can run programs,
 * the guest says MMF_SERVE_READY. The host then sends a request: the
 * programs to run concurrently, each after an MMF_PROG_EXEC_MARK line,
 * then an MMF_SERVE_END line. The guest runs them and answers with an
 * MMF_SERVE_TITLE line per report (its own oracles' and the kernel log's)
 * and then MMF_SERVE_DONE and 0, or -1 when they could not be run. A
 * kernel report that ends the guest ends the answer: the host reads that
 * one from the console.
 */
#define MMF_SERVE_READY	"mmfuzz-serve: ready"
/*
 * A request whose first line is this, "NAME RUNS", runs a benchmark
 * instead: one MMF_SERVE_BENCH line per run with its JSON, then done.
 * "NAME RUNS cover" traces every task of the runs with KCOV too and
 * answers MMF_SERVE_PCS lines (the focus's distinct PCs) before done.
 */
#define MMF_SERVE_BENCH	"bench "
/*
 * Coverage-guided fuzzing from the host (an AFL++ engine): a request whose
 * first line is MMF_SERVE_FOCUS sets the coverage focus, the rest of it
 * being the ranges' text (cover/focus.h); then "done 0". A request whose
 * first line is MMF_SERVE_COVER runs the one program after it with kernel
 * coverage and answers, besides its titles, MMF_SERVE_STATUS and the run
 * status's name, the program's run time in ns, the feedback ("kcov", or
 * "state" without KCOV: exec/feedback.h) and the CPU time of its processes
 * in user space and in the kernel in ns, then each phase's ns (exec.h,
 * enum mmf_phase, in order), for each report of its oracles or the kernel log its
 * MMF_SERVE_TITLE line and an MMF_SERVE_REPORT line with the report's text
 * (mmf_sb_escaped_line()), MMF_SERVE_EDGES lines of "index:count" hex pairs and
 * MMF_SERVE_PCS lines of hex PCs (the focus's distinct PCs), then "done 0".
 */
#define MMF_SERVE_FOCUS	"focus"
#define MMF_SERVE_COVER	"cover"
#define MMF_SERVE_STATUS	"status "
/* The phases of the status line: setup start body end exit after (exec.h). */
#define MMF_SERVE_PHASES	6
#define MMF_SERVE_REPORT	"report "
#define MMF_SERVE_EDGES	"edges "
#define MMF_SERVE_PCS	"pcs "
/*
 * A request whose first line is MMF_SERVE_TRACE runs the one program after
 * it with its behaviour trace (exec.h's trace) and answers MMF_SERVE_STATUS
 * with the run's status, an MMF_SERVE_CALL line per call ("SI PARTY RES N
 * HEX": the result, then the states of the first N pages of its range
 * after it, a byte each, exec/feedback.h), MMF_SERVE_COUNTERS ("RssAnon
 * VmSwap VmLck RssShmem" in kB at the end), the reports as for
 * MMF_SERVE_COVER, then "done 0".
 */
#define MMF_SERVE_TRACE	"trace"
#define MMF_SERVE_TRACE_PAGES	32	/* N at most: exec/feedback.h's MMF_STATE_PAGES */
#define MMF_SERVE_CALL	"call "
#define MMF_SERVE_COUNTERS	"counters "
#define MMF_SERVE_END	"# mmfuzz: end of request"
/* The last line of a focus's text (cover/focus.h) that a guest reads from a port. */
#define MMF_COVER_FOCUS_END	"# mmfuzz: end of focus"
#define MMF_SERVE_TITLE	"title "
#define MMF_SERVE_DONE	"done "

#endif
