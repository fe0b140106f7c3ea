/* SPDX-License-Identifier: GPL-2.0 */
/* The fuzz loop: generate or mutate, execute, keep what was new, save reports. */
#ifndef MMF_FUZZ_H
#define MMF_FUZZ_H

#include <stdbool.h>
#include <stdint.h>

#include "exec/exec.h"
#include "fuzz/callstats.h"
#include "fuzz/env.h"
#include "repro/repro.h"
#include "store/store.h"
#include "store/tally.h"
#include "stressors/stressor.h"

struct mmf_fuzz_opts {
	uint64_t seed;
	int64_t duration_ms;
	const char *out;	/* output directory */
	int timeout_ms;
	int slowdown;		/* mmf_exec_opts.slowdown */
	int progress_ms;
	int max_calls;		/* per generated program */
	const char *exec_log;	/* NULL: OUT/exec.log; a guest gives its log port */
	bool print_reports;	/* whole reports on stdout (a guest's console) */
	const char *findings;	/* a guest's findings channel (vm/vm.h), "kmsg", NULL: none */
	const char *cover_log;	/* a guest's coverage port (fuzz/coverlog.h), NULL: none */
	/* Test hooks for the crash path: after this many programs, provoke
	 * an LKDTM crash of this type, or go silent as a hung machine would.
	 */
	const char *lkdtm;
	int lkdtm_after;
	int stall_after;	/* 0: never */
	/* A real kernel report's line written to /dev/kmsg after this many
	 * programs (0: never): a report that leaves the kernel running.
	 */
	int kmsg_after;
	/* On a KCSAN kernel, two writers of its racy counter after this many
	 * programs (0: never): a known data race (kvm/patches/kcsan/).
	 */
	int kcsan_race_after;
	/* The executor's hooks (exec/exec.h), -1 or 0 for none. */
	int corrupt_after, corrupt_tag;
	bool no_race;		/* mmf_exec_opts.no_race */
	struct mmf_stress_sel stress;	/* stressors beside the fuzzer */
	/* Programs the pool starts with; from seeds_from on (-1: none) each
	 * runs once, as it is, before any other (a campaign's seed pass, which
	 * a guest's next boot goes on with after a crash).
	 */
	const struct mmf_prog *seeds;
	int nr_seeds, seeds_from;
};

struct mmf_fuzz_stats {
	uint64_t progs, calls, swapped, reports, timeouts, killed, crashed;
	struct mmf_tally tally;		/* the reports saved, by title */
	struct mmf_callstats percall;	/* each call's results */
};

/*
 * The seeds in path ("-": standard input), a stream as model/prog.h says
 * (MMF_SEED_MARK ... MMF_SEEDS_END), waiting up to a minute for its end.
 * 0 with *progs (free it) and *nr, or -1 with a one-line reason in err.
 */
int mmf_fuzz_seeds_read(const char *path, struct mmf_prog **progs, int *nr, char *err,
			size_t n);

/* Run until the budget is spent or SIGINT/SIGTERM; 0, or -1 with a message. */
int mmf_fuzz_run(const struct mmf_fuzz_opts *o, struct mmf_env *env,
		 struct mmf_fuzz_stats *st);

/*
 * Save a report and the program that produced it into the crash store
 * OUT/crashes (see store/store.h), with this kernel's uname -r -v and -m;
 * once the findings channel is open, also send an oracle's report to the
 * host and wait until the host has saved it. 0 and *res filled, or -errno
 * with mmf_store_err() set.
 *
 * The channel "kmsg" is for a guest whose console is all the host keeps
 * (a LAVA job): each oracle report goes to the kernel log as frame lines
 * (store/wire.h), which the kernel prints whole on the console, and every
 * report saved, the kernel's too, as a LAVA test case line
 * "mmfuzz-case: CLASS: fail"; mmf_findings_close() then says "pass" for
 * each class that had none.
 */
int mmf_findings_open(const char *path);
void mmf_findings_close(void);
/* related: the title of this program's earlier report, NULL (store.h). */
int mmf_save_crash(const char *out, const struct mmf_exec_report *r, const struct mmf_prog *p,
		   const char *related, struct mmf_store_added *res);

#endif
