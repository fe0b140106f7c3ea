/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hang oracle. Each party of a program (the main line, each thread and
 * fork block) says on a board shared with the runner which call it is in,
 * since when, and how much work the call has (pages). The runner samples the
 * progress of every task in a call (CPU time, context switches, I/O, faults
 * from /proc/PID/task/TID); a call that runs past a bound scaled to its work
 * while its task makes no progress is a "HANG: <call>" report with the
 * task's kernel stack, and so is a stalled call at the program's timeout,
 * and one that spins (CPU time, but no fault and no I/O) past its bound.
 */
#ifndef MMF_EXEC_HANG_H
#define MMF_EXEC_HANG_H

#include <stdint.h>
#include <sys/types.h>

#include "model/prog.h"
#include "util/util.h"

/* One party: tid 0 when not in a call. */
struct mmf_hang_slot {
	int32_t tid;
	int32_t si;
	int64_t work;		/* pages the call must handle */
	uint64_t start_ns;
};

struct mmf_hang_board {
	struct mmf_hang_slot slot[MMF_MAX_STMTS + 1];	/* party + 1 */
};

/* What the runner remembers of each slot between samples. */
struct mmf_hang_watch {
	int32_t tid, si;
	uint64_t start_ns;
	uint64_t sig;		/* progress signature */
	uint64_t since_ns;	/* when sig last changed */
	uint64_t done;		/* its I/O and faults alone */
	uint64_t done_since_ns;	/* when done last changed */
};

/* The board of the running program, in the program's processes. */
extern struct mmf_hang_board *mmf_hang_board;

/* A board shared across fork(); NULL on failure. */
struct mmf_hang_board *mmf_hang_board_new(void);
void mmf_hang_board_free(struct mmf_hang_board *b);

/* In the program: party enters statement si of p / leaves it. */
void mmf_hang_enter(int party, const struct mmf_prog *p, int si, long psz);
void mmf_hang_leave(int party);

/*
 * The bound (ms) a call with this much work gets before a stall counts, on
 * a machine slow times slower than native (0 or 1: native).
 */
long mmf_hang_bound_ms(int64_t work, int slow);

/*
 * In the runner: sample every slot at time now. at_timeout: the program ran
 * out of time, so any call stalled for a while is hung whatever its bound.
 * Returns 1 with a report (title line, then body) in out when a call hangs.
 */
int mmf_hang_scan(const struct mmf_hang_board *b, struct mmf_hang_watch *w,
		  const struct mmf_prog *p, uint64_t now, bool at_timeout, int slow,
		  struct strbuf *out);

#endif
