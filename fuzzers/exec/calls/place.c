// SPDX-License-Identifier: GPL-2.0
/* The place family: where pages live rather than what they hold (runtime/place.h). */
#include "exec/calls.h"
#include "runtime/place.h"

long mmf_exec_mbind(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);

	return rt_mbind(addr, len, s->args[3], (int64_t)s->args[4], s->args[5]);
}

long mmf_exec_move_pages(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	return rt_move_pages(rt_target_pid(in->kids, (int)s->args[3] - 1), mmf_page_addr(in, idx),
			     n, in->psz, (int64_t)s->args[4]);
}

long mmf_exec_migrate_pages(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return rt_migrate_pages(rt_target_pid(in->kids, (int)s->args[0] - 1), s->args[1],
				s->args[2]);
}

long mmf_exec_compact(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return rt_compact();
}
