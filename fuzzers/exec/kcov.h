/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel coverage of a program's calls (KCOV_TRACE_PC). Every task of the
 * program (its main line, each thread, each forked child) traces on its
 * own kcov descriptor, and only while a call runs: the oracles' own reads
 * of pagemap and page content between calls are not the program's
 * coverage. The PCs that fall in the focus go, as AFL-style edges and as
 * distinct PCs, into one shared map that outlives the program's process.
 */
#ifndef MMF_KCOV_H
#define MMF_KCOV_H

#include <stdbool.h>
#include <stdint.h>

#include "cover/focus.h"

#define MMF_COVER_EDGES	65536		/* AFL++'s default map size */
#define MMF_COVER_PCS	(1 << 17)	/* distinct PCs kept per program */

struct mmf_cover {
	/* The focus, NULL for all PCs: set before the program forks. */
	const struct mmf_focus *focus;
	/*
	 * The state feedback (exec/feedback.h) goes into edges too, beside
	 * KCOV's where the kernel has it: a program that makes a state new to
	 * the run counts even when it runs no new line.
	 */
	bool state;
	uint64_t nr_pcs;	/* distinct PCs in pcs[] */
	uint64_t lost;		/* PCs not kept: the set or a trace was full */
	uint64_t pcs[MMF_COVER_PCS];	/* open addressing, 0 empty */
	uint8_t edges[MMF_COVER_EDGES];	/* hit counts, saturating */
};

/* /sys/kernel/debug/kcov opens: this kernel has KCOV. */
bool mmf_kcov_available(void);
/* A map shared with the program's processes (MAP_SHARED), or NULL. */
struct mmf_cover *mmf_cover_new(const struct mmf_focus *focus);
void mmf_cover_reset(struct mmf_cover *c);
void mmf_cover_free(struct mmf_cover *c);

/* In a task of the program, around each call (no-ops without a map). */
void mmf_kcov_call_begin(struct mmf_cover *c);
void mmf_kcov_call_end(struct mmf_cover *c);
/*
 * A whole task of a workload (a benchmark's), not a call: start traces it
 * from now, harvesting its trace into c every millisecond of its CPU time
 * (SIGPROF), and stop harvests the rest and closes its descriptor. For a
 * forked child too: it opens a descriptor of its own.
 */
void mmf_kcov_task_cover(struct mmf_cover *c, bool start);
/* A forked child drops its parent's descriptor; a thread closes its own. */
void mmf_kcov_forked(void);
void mmf_kcov_task_exit(void);

#endif
