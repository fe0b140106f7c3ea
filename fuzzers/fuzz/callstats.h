/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-call results of a fuzzing run, as syzkaller keeps them: how often
 * each call ran, how often it succeeded (returned >= 0) and with which
 * errnos it failed. A call that mostly fails tests only its argument
 * checks, so the table at the end of a run shows which calls' preconditions
 * generation gets wrong.
 */
#ifndef MMF_FUZZ_CALLSTATS_H
#define MMF_FUZZ_CALLSTATS_H

#include <stdint.h>
#include <stdio.h>

#include "exec/exec.h"
#include "model/prog.h"
#include "util/util.h"

/* Distinct errnos kept per call; a call rarely fails more ways than this. */
#define MMF_CALLSTATS_ERRS	16

struct mmf_callstats {
	struct mmf_callstat {
		uint64_t runs, ok;
		/* time in the call, and in the oracles' checks after it */
		uint64_t call_ns, check_ns;
		/* failures with no errno slot left, or below -4095 (no errno) */
		uint64_t other;
		int nr_errs;
		struct mmf_callstat_err {
			int err;
			uint64_t n;
		} errs[MMF_CALLSTATS_ERRS];
	} c[MMF_NR_CALLS];
	/* Where a program's time goes: its wall time from the execution log
	 * to the last check, by phase, the CPU time of its processes, and the
	 * run's whole time (set by the caller) of which the rest is the
	 * loop's own work.
	 */
	uint64_t progs, prog_ns, user_ns, sys_ns, run_ns;
	uint64_t phase_ns[MMF_NR_PHASES];
};

/* One call's result: res >= 0 is a success, else -errno. */
void mmf_callstats_count(struct mmf_callstats *cs, int id, int64_t res);
/* Every call result of a program's run (block statements too), and its
 * times.
 */
void mmf_callstats_add(struct mmf_callstats *cs, const struct mmf_prog *p,
		       const struct mmf_exec_result *r);
/*
 * The table: a line per call that ran, by name, then the block statements:
 * name, runs, ok %, the three commonest errnos with their share of the
 * runs, and '*' where under a third of the runs succeeded; then the calls
 * that never ran.
 */
void mmf_callstats_print(const struct mmf_callstats *cs, FILE *f);
/*
 * The same as JSON, every errno: {"calls":[{"call":"mremap","runs":N,
 * "ok":K,"low":bool,"block":bool,"errnos":[{"errno":"EINVAL","count":C},
 * ...],"other":O},...]}, in the table's order, calls that never ran too.
 */
void mmf_callstats_json(const struct mmf_callstats *cs, struct strbuf *sb);

#endif
