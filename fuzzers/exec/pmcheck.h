/* SPDX-License-Identifier: GPL-2.0 */
/* The pagemap flags oracle in the executor, see oracle/pagemap.h. */
#ifndef MMF_EXEC_PMCHECK_H
#define MMF_EXEC_PMCHECK_H

#include "exec/interp.h"

/* Once per executor, before programs fork: what this kernel's pagemap means. */
void mmf_pmcheck_init(void);
/* The checks (MMF_PMCHK_*) program p allows. */
unsigned int mmf_pmcheck_policy(const struct mmf_prog *p);
/* After statement si, a write that did res pages, with no other party of
 * this process running: check the written pages' entries.
 */
void mmf_pmcheck_written(struct mmf_interp *in, int fd, unsigned int checks, int si, long res);

#endif
