/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The executor's piece of each call of model/calls.def: mmf_exec_FN, defined
 * in exec/calls/FAMILY.c, runs the call's system call(s) and returns >= 0 or
 * -errno. Addresses come from the arena: a range is slot base + page * page
 * size. Raw syscall(2) is used where the C library may lack a wrapper or a
 * sanitizer intercepts it (ASan turns mlock into a no-op); flag values come
 * straight from the program. Block statements have no entry: the
 * interpreter runs them.
 */
#ifndef MMF_EXEC_CALLS_H
#define MMF_EXEC_CALLS_H

#include <errno.h>

#include "exec/interp.h"
#include "runtime/base.h"

typedef long (*mmf_run_fn)(struct mmf_interp *in, const struct mmf_stmt *s, int si);

#define MMF_CALL(id, fn, ...)	long mmf_exec_##fn(struct mmf_interp *in, const struct mmf_stmt *s, int si);
#define MMF_BLOCK(...)
#include "model/calls.def"
#undef MMF_CALL
#undef MMF_BLOCK

/* Indexed by call id (calls.c); NULL for the block statements. */
extern const mmf_run_fn mmf_exec_calls[MMF_NR_CALLS];

/* The address of the statement's range, and its length in bytes. */
static inline char *mmf_range_addr(struct mmf_interp *in, const struct mmf_stmt *s, long *len)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	*len = (long)n * in->psz;
	return mmf_page_addr(in, idx);
}

/* Whether p has a call of id: a family's calls that the runner undoes. */
static inline bool mmf_has_call(const struct mmf_prog *p, int id)
{
	for (int i = 0; i < p->nr; i++)
		if (p->stmts[i].id == id)
			return true;
	return false;
}

/*
 * Once per runner process, before any program (calls/map.c): a perf event
 * held open, so that special_map's do not patch kernel text; 0, or -1
 * with errno.
 */
int mmf_exec_map_init(void);

#endif
