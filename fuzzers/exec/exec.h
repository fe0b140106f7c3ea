/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The executor: runs a program in a fresh forked process with a timeout,
 * feeding every call and its result to the oracles, and collects per-call
 * results and reports. One hung or killed program never stops the caller.
 */
#ifndef MMF_EXEC_H
#define MMF_EXEC_H

#include <stdbool.h>
#include <stdint.h>

#include "exec/feedback.h"
#include "model/prog.h"
#include "runtime/racesync.h"

struct mmf_kmsg;
struct mmf_cover;

struct mmf_exec_opts {
	int timeout_ms;
	/* How much slower than native programs run (a TCG guest: about 10):
	 * the hang oracle's bounds grow by it. 0 or 1: native.
	 */
	int slowdown;
	/* Swap devices s0..s3: only ones mmfuzz made; NULL where none. */
	const char *swaps[MMF_NR_SWAPS];
	/* Directory on tmpfs for tmpfile(), e.g. /dev/shm. */
	const char *tmpdir;
	/* Written with the program text before it starts; -1 for none. */
	int exec_log_fd;
	/* Kernel-log oracle, read after each program; NULL for none. */
	struct mmf_kmsg *kmsg;
	/* Kernel coverage of the calls (exec/kcov.h), reset for each
	 * program; NULL for none.
	 */
	struct mmf_cover *cover;
	/* A memory cgroup's cgroup.procs to put the program process in. */
	const char *cgroup_procs;
	/* Memory cgroup directories cg_move, cg_limit and cg_reclaim address:
	 * [0] the one of cgroup_procs, then siblings; NULL where none. The
	 * runner restores the limits a program changed (exec/calls/cgroup.c).
	 */
	const char *cgroups[MMF_NR_CGROUPS];
	/* Files of mmf_knob_paths[] that thp_knob may write: journaled by the
	 * environment before any program (so a kill leaves them restorable),
	 * restored by the runner after each program that wrote one. NULL where
	 * the kernel lacks the knob or nothing journaled it.
	 */
	const char *knobs[MMF_NR_KNOBS];
	/* Test hooks, -1 for never: after this statement, change a page
	 * behind the model's back through /proc/self/mem; or stop and wait
	 * forever, as a hung call would.
	 */
	int corrupt_after;
	int hang_after;
	bool hang_spins;	/* hang on the CPU, as a loop in the kernel does */
	/* Test hook: corrupt a page after every write of this tag (0: never),
	 * which survives the statement renumbering of minimization.
	 */
	int corrupt_tag;
	/* Test hook: after every write of this tag (0: never), provoke the
	 * LKDTM crash type lkdtm_type: a kernel report that a program brings.
	 */
	int lkdtm_tag;
	const char *lkdtm_type;
	/* Test hook: statement + 1 (0: never) of a pin call after which the
	 * first page the kernel wrote (or vmsplice'd) is changed.
	 */
	int corrupt_pin;
	/* Race statements do nothing: their groups run once, unsynchronized,
	 * to measure what racing adds.
	 */
	bool no_race;
	/*
	 * The behaviour trace (mmfuzz validate's differential verdict): each
	 * ranged call's page states after it, and this process's counters at
	 * the end, in the result.
	 */
	bool trace;
};

enum mmf_run_status {
	MMF_RUN_OK,
	MMF_RUN_TIMEOUT,	/* killed after timeout_ms */
	MMF_RUN_KILLED,		/* SIGKILL from outside, e.g. the OOM killer */
	MMF_RUN_CRASHED,	/* died of another signal or exit status */
};

/* "ok", "timeout", "killed", "crashed". */
/* Where a program's time goes outside its statements, for profiles. */
enum mmf_phase {
	MMF_PHASE_SETUP,	/* before the fork: log, saved knobs, the baseline */
	MMF_PHASE_START,	/* fork to the first statement: cgroup, interpreter */
	MMF_PHASE_BODY,		/* first statement to the end of the last */
	MMF_PHASE_END,		/* the process's own checks at its end */
	MMF_PHASE_EXIT,		/* its exit: the address space torn down */
	MMF_PHASE_AFTER,	/* knobs put back, machine-wide accounting, kmsg */
	MMF_NR_PHASES
};

const char *mmf_run_status_name(enum mmf_run_status s);
/* "setup", "start", "body", "end", "exit", "after". */
const char *mmf_phase_name(enum mmf_phase ph);

#define MMF_EXEC_COUNTERS	4

struct mmf_call_result {
	int16_t si;		/* statement index */
	int16_t party;		/* -1 main line, else the opening statement */
	int32_t swapped;	/* swapped pages of the range after it, -1 unknown */
	int64_t res;		/* >= 0, or -errno */
	/* Time in the call itself, and in the oracles' checks after it. */
	uint64_t call_ns, check_ns;
	/* With mmf_exec_opts.trace: the first pages' states after a ranged call. */
	int8_t nstates;
	uint8_t states[MMF_STATE_PAGES];
};

/* One round of a racing group, as it went. */
struct mmf_race_round {
	int16_t race;		/* its race statement */
	int16_t round;
	int8_t parties;		/* the main line and the blocks that started */
	int8_t cpu[RACE_PARTIES];	/* where each party left the barrier, -1 unknown */
	int64_t delay_ns;	/* the delayed party's spin */
	int64_t spread_ns;	/* first to last party out of the barrier */
};

struct mmf_exec_report {
	char *title;
	char *body;
	bool kernel;		/* from the kernel log; else an oracle's */
};

struct mmf_exec_result {
	enum mmf_run_status status;
	int sig;
	uint64_t ns;		/* the whole: every phase */
	uint64_t phase_ns[MMF_NR_PHASES];	/* all 0 if the child's times are lost */
	uint64_t user_ns, sys_ns;	/* CPU time of the program's processes */
	int nr_results;
	struct mmf_call_result *results;
	int nr_reports;
	struct mmf_exec_report *reports;
	int nr_rounds;
	struct mmf_race_round *rounds;
	long swapped;		/* pages seen swapped after calls, summed */
	/* With mmf_exec_opts.trace: RssAnon, VmSwap, VmLck, RssShmem (kB) at the end. */
	bool has_counters;
	long counters[MMF_EXEC_COUNTERS];
};

/* Choose the arena once per process; every program uses the same one. */
int mmf_exec_init(void);

int mmf_exec_prog(const struct mmf_prog *p, const struct mmf_exec_opts *o,
		  struct mmf_exec_result *r);
void mmf_exec_result_free(struct mmf_exec_result *r);

/*
 * Run a program in the calling process (the forked child does this, which
 * began at start_ns); its last record gives its times (exec/runner.c).
 */
void mmf_exec_interp(const struct mmf_prog *p, const struct mmf_exec_opts *o, int outfd,
		     uint64_t start_ns);

/* "-1 ENOMEM", "0", "512": a call result as the text form prints it. */
void mmf_exec_format_res(int64_t res, char *buf, size_t n);

#endif
