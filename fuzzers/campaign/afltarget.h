/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AFL++ engine's target: a proxy that afl-fuzz starts as its fork
 * server. Each input AFL++ asks for is decoded (any byte string is a
 * program), run once in a serving guest with kernel coverage (the guest's
 * executor traces every task of the program with KCOV), and the guest's
 * edges are written into AFL++'s shared map. A kernel or oracle report, a
 * guest that died or went silent, is a crash to AFL++ and an entry in the
 * crash store with the program; the guest is then replaced and the same
 * afl-fuzz goes on, its queue on the host.
 *
 * AFL++ sees a forked placeholder per input as "the child": it exits 0
 * for a clean run and dies of SIGUSR2 for a crash, and AFL++'s own timeout
 * may kill it without harm (the proxy finishes the request first).
 */
#ifndef MMF_AFLTARGET_H
#define MMF_AFLTARGET_H

#include <stdint.h>

#include "campaign/guestrepro.h"
#include "cover/focus.h"

struct mmf_afl_target_opts {
	struct mmf_guest_repro_opts go;
	const char *input;	/* the file AFL++ writes each input to (@@) */
	const char *store;	/* the crash store findings go into */
	const char *seeds;	/* "seed-HASH SOURCE" lines: a seed's finding names it */
	const char *cover;	/* coverage files (PCs, samples) go here; NULL none */
	const char *kernel_name;	/* the store's kernel field, NULL unknown */
	/*
	 * Parts of the focus that weigh more (a patch's functions): each PC
	 * of weight W sets W - 1 more entries of AFL++'s map, so that AFL++'s
	 * schedule, which favours inputs by the map entries they set, gives
	 * programs that reach them more of its time; those programs' PCs of
	 * weight > 1 go to COVER/weighted, one line of them per program.
	 */
	const struct mmf_focus_weights *weights;
	/*
	 * Test hook of the crash path: this execution (from 1; 0 never) runs,
	 * in place of its input, a write of tag MMF_AFL_SELFTEST_TAG, which
	 * the guest (given --lkdtm-tag with it) answers with an LKDTM crash.
	 */
	int selftest_exec;
};

#define MMF_AFL_SELFTEST_TAG	"0xdd"


/* afl-fuzz started us: its map and fork server pipes are there. 0 or -1, err. */
int mmf_afl_target_check(char *err, size_t n);

/*
 * Serve afl-fuzz until it closes the fork server's pipes: 0, or -1 and err
 * (not started by afl-fuzz, no shared map, no guest boots, no KCOV).
 */
int mmf_afl_target(const struct mmf_afl_target_opts *o, char *err, size_t n);

#endif
