/* SPDX-License-Identifier: GPL-2.0 */
/*
 * userfaultfd in the executor (issue 7 track B): one uffd per program
 * process, made by uffd_create or lazily by the first uffd call, and a
 * handler thread that resolves its faults the way the shadow model assumes.
 */
#ifndef MMF_EXEC_UFFD_H
#define MMF_EXEC_UFFD_H

#include "exec/interp.h"

long mmf_uffd_run_create(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_uffd_run_register(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_uffd_run_unregister(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_uffd_run_copy(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_uffd_run_zeropage(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_uffd_run_writeprotect(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_uffd_run_continue(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_uffd_run_poison(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_uffd_run_move(struct interp *in, const struct mmf_stmt *s, int si);

/* In a fork child: drop the inherited uffd (it works on the parent's mm). */
void mmf_uffd_forked(struct interp *in);
/* At the end of the program: stop the handler, close every uffd. */
void mmf_uffd_stop(struct interp *in);

#endif
