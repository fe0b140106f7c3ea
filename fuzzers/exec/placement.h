/* SPDX-License-Identifier: GPL-2.0 */
/* Run functions of the placement calls (track D): NUMA policy, migration,
 * compaction. Rows of mmf_exec_calls[] in syscalls.c.
 */
#ifndef MMF_EXEC_PLACEMENT_H
#define MMF_EXEC_PLACEMENT_H

#include "exec/interp.h"

long mmf_run_mbind(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_run_move_pages(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_run_migrate_pages(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_run_compact(struct interp *in, const struct mmf_stmt *s, int si);

#endif
