/* SPDX-License-Identifier: GPL-2.0 */
/*
 * State feedback: what a program did to the machine and to its pages,
 * written into the same edge map AFL++ reads (exec/kcov.h, with
 * mmf_cover.state set), beside KCOV's edges where the kernel has KCOV and
 * alone where it has not (Debian's and production kernels):
 *
 * - per call: the call and its result's class (ok, or the errno);
 * - per ranged call: each page's state before and after it (present,
 *   swapped, exclusive, file or shared, a THP, mlocked: pagemap and, as
 *   root, kpageflags), one edge per (call, before, after);
 * - per program: the /proc/vmstat counters it moved, each bucketed by the
 *   size of its change (powers of two).
 *
 * The counters are the machine's, so a stressor beside the program adds
 * to them: a signal, not a measurement.
 */
#ifndef MMF_FEEDBACK_H
#define MMF_FEEDBACK_H

#include <stdint.h>

#include "exec/kcov.h"

#define MMF_STATE_PAGES	32	/* pages of a range whose state is read */
#define MMF_NR_VMSTAT	24

/* The state bits of up to MMF_STATE_PAGES pages from addr; how many. */
int mmf_page_states(int pagemap, int kpageflags, const void *addr, long psz, int n,
		    uint8_t *states);
void mmf_feedback_states(struct mmf_cover *c, int call, const uint8_t *before,
			 const uint8_t *after, int n);
void mmf_feedback_result(struct mmf_cover *c, int call, int64_t res);

/* The counters of mmf_feedback_vmstat(), read now. */
void mmf_vmstat_read(uint64_t v[MMF_NR_VMSTAT]);
void mmf_feedback_vmstat(struct mmf_cover *c, const uint64_t before[MMF_NR_VMSTAT],
			 const uint64_t after[MMF_NR_VMSTAT]);

#endif
