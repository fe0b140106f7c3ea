// SPDX-License-Identifier: GPL-2.0
/*
 * The access family: the program's own stores and loads, page by page up
 * to the first fault (interp.c checks what a read sees), and the calls that
 * look at a range.
 */
#include <sys/mman.h>

#include "exec/calls.h"
#include "runtime/access.h"

long mmf_exec_write(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	return mmf_guarded_pages(in, idx, n, si, mmf_page_fill);
}

long mmf_exec_read(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	return mmf_guarded_pages(in, idx, n, si, mmf_page_verify);
}

long mmf_exec_mincore(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);

	return rt_mincore(addr, len);
}

long mmf_exec_msync(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);

	return rt_ret(msync(addr, len, s->args[3]));
}
