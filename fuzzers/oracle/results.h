/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results oracle: a call's errno where the man page defines its
 * misuse, and after mlock the range resident (mincore) and VmLck equal to
 * what the model locked. (The accounting oracle, accounting.h, compares
 * the machine's counters.)
 */
#ifndef MMF_RESULTS_H
#define MMF_RESULTS_H

#include "model/arena.h"
#include "oracle/shadow.h"
#include "util/util.h"

/* The errno (positive) the call must fail with on this model, 0 if none. */
int mmf_results_errno(const struct mmf_shadow *sh, const struct mmf_stmt *s,
			    const char **why);

/* VmLck of this process in kB, -1 if unreadable. */
long mmf_results_vmlck_kb(void);

/*
 * After a successful lock call: every readable page of the range that the
 * model knows must be resident, and VmLck must be base + locked pages.
 * Appends a report (title line first) to out and returns 1 on a mismatch.
 */
int mmf_results_check_locked(const struct mmf_shadow *sh, const struct mmf_stmt *s,
			  const struct mmf_arena *arena, long vmlck_base_kb, struct strbuf *out);

#endif
