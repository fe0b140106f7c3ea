// SPDX-License-Identifier: GPL-2.0
/*
 * The advise family: madvise, and process_madvise on this process or a child
 * (one range) or on this process (two ranges).
 */
#include <sys/mman.h>

#include "exec/calls.h"
#include "runtime/advise.h"

long mmf_exec_madvise(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);

	return rt_ret(madvise(addr, len, s->args[3]));
}

long mmf_exec_process_madvise(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	struct iovec iov;

	iov.iov_base = mmf_range_addr(in, s, (long *)&iov.iov_len);
	return rt_process_madvise(in->pidfds, (int)s->args[3] - 1, &iov, 1, s->args[4]);
}

/*
 * Both ranges in one process_madvise() on this process. The kernel gives
 * the bytes of the ranges it advised; the model counts pages.
 */
long mmf_exec_process_madvise_vec(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	struct iovec iov[2];
	int idx, n;
	long r;

	iov[0].iov_base = mmf_range_addr(in, s, (long *)&iov[0].iov_len);
	mmf_stmt_second_range(s, &idx, &n);
	iov[1].iov_base = mmf_page_addr(in, idx);
	iov[1].iov_len = (long)n * in->psz;
	r = rt_process_madvise(in->pidfds, -1, iov, 2, s->args[6]);
	return r < 0 ? r : r / in->psz;
}
