/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stressors keep the kernel reclaiming, swapping and splitting large folios
 * while the fuzzer runs. Each is one file and one struct mmf_stressor_info,
 * registered in mmf_stressors[] (registry.c); the runner (runner.c) runs a
 * chosen set in one child process, a thread per stressor, beside the
 * fuzzer, and the sampler (sampler.h) records what the kernel did.
 */
#ifndef MMF_STRESSOR_H
#define MMF_STRESSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "stressors/swapset.h"
#include "util/rand.h"
#include "util/util.h"

struct mmf_journal;
struct mmf_cgroup;

#define MMF_STRESS_MAX_OPTS	6

/* A numeric option, NAME:KEY=VALUE on the command line. */
struct mmf_stress_opt {
	const char *key;
	const char *help;
	int64_t def, min, max;
};

/*
 * What the stressors act on: the run's journal (every change goes through
 * it), the fuzzing cgroup and the swap devices of the run. Shared by all
 * stressors of a run, read-only for them.
 */
struct mmf_stress_target {
	struct mmf_journal *j;
	struct mmf_cgroup *cg;		/* NULL: no cgroup */
	int64_t cg_limit;		/* its limit as set up, bytes */
	struct mmf_swapset *swaps;
	const char *out;		/* the run's output directory */
	/* A stressor's finding (stress-ng's failures): saved as a report. */
	void (*report)(void *arg, const char *title, const char *body);
	void *report_arg;
};

struct mmf_stress_ctx {
	const struct mmf_stressor_info *info;
	const struct mmf_stress_target *t;
	int64_t opt[MMF_STRESS_MAX_OPTS];	/* in the order of info->opts */
	struct mmf_rand rnd;
	void *priv;				/* the runner's state of the stressor */
};

struct mmf_stressor_info {
	const char *name;
	const char *help;
	int period_ms;				/* time between two steps */
	const struct mmf_stress_opt opts[MMF_STRESS_MAX_OPTS];	/* key NULL ends */
	/*
	 * In the calling process before the runner starts: check that the
	 * kernel has what it needs (-EOPNOTSUPP/-ENOENT: skipped, with
	 * mmf_sys_err() saying why) and make journaled changes. May be NULL.
	 */
	int (*setup)(struct mmf_stress_ctx *c);
	/*
	 * In the runner, every period_ms: one bounded step. Errors the kernel
	 * may give under stress (ENOMEM, EBUSY, EINVAL, EAGAIN) are counted,
	 * never fatal. Returns 0 or -errno with mmf_sys_err() set.
	 */
	int (*step)(struct mmf_stress_ctx *c);
	/* In the calling process after the runner ended; may be NULL. */
	void (*teardown)(struct mmf_stress_ctx *c);
};

extern const struct mmf_stressor_info *const mmf_stressors[];
extern const size_t mmf_nr_stressors;
/* Used when none is chosen: what mmfuzz fuzz runs beside the fuzzer. */
extern const char mmf_stress_default[];

const struct mmf_stressor_info *mmf_stressor_find(const char *name);
/* 'mmfuzz stress --list': names, help and options. */
void mmf_stress_list(struct strbuf *sb);

#define MMF_STRESS_MAX	16

struct mmf_stress_sel {
	int nr;
	const struct mmf_stressor_info *info[MMF_STRESS_MAX];
	int64_t opt[MMF_STRESS_MAX][MMF_STRESS_MAX_OPTS];
};

/*
 * Parse "NAME[:KEY=VALUE...][,NAME...]" ('+' works as ','), "all" or "none". 0, or -1 with a
 * one-line message in err.
 */
int mmf_stress_parse(const char *spec, struct mmf_stress_sel *sel, char *err, size_t n);

struct mmf_stress_run;

/*
 * Set up the chosen stressors (skipping, with a message on stdout, those
 * the kernel cannot run) and start the runner process with them and the
 * sampler writing OUT/samples.jsonl. 0, or -1 with a message in err.
 */
int mmf_stress_start(const struct mmf_stress_sel *sel, const struct mmf_stress_target *t,
		     uint64_t seed, struct mmf_stress_run **rp, char *err, size_t n);
/*
 * The fuzzer finished a program. Once called, the stressors pause while
 * no call came for a few seconds: a hung fuzzer leaves the console quiet.
 */
void mmf_stress_beat(struct mmf_stress_run *r);
/*
 * The stressors in the order they last acted, the most recent first, with
 * how long ago each step started: a line for a finding's report. Nothing
 * for a NULL run or before any step.
 */
void mmf_stress_last(const struct mmf_stress_run *r, struct strbuf *sb);
/* The runner's pid (to kill it in tests), -1 when it has ended. */
pid_t mmf_stress_pid(const struct mmf_stress_run *r);
/* The stressors' findings so far (mmf_stress_report). */
unsigned int mmf_stress_reports(const struct mmf_stress_run *r);
/*
 * Stop the runner, tear the stressors down, print one line per stressor
 * (steps, errors, last error) and the sampler's summary to stdout;
 * -1 when the runner had died before (a crash, the OOM killer), else 0.
 */
int mmf_stress_stop(struct mmf_stress_run *r);

/* For a step that blocks long (stress-ng): the run is ending, return soon. */
bool mmf_stress_stopping(void);
/* A finding of a stressor thread: through the target's report, one at a time. */
void mmf_stress_report(struct mmf_stress_ctx *c, const char *title, const char *body);

/* Tolerated errors: what a kernel under memory pressure answers. */
bool mmf_stress_expected(int err);

#endif
