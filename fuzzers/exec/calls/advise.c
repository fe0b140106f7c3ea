// SPDX-License-Identifier: GPL-2.0
/*
 * The advise family: madvise, and process_madvise on this process or a child
 * (one range) or on this process (two ranges).
 */
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "exec/calls.h"

long mmf_exec_madvise(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);

	return mmf_ret(madvise(addr, len, s->args[3]));
}

/* process_madvise() on this process, by a pidfd of its own. */
static long pmadvise_self(const struct iovec *iov, int nr, int advice)
{
	long r;
	int fd = syscall(SYS_pidfd_open, getpid(), 0);

	if (fd < 0)
		return -errno;
	r = mmf_ret(syscall(SYS_process_madvise, fd, iov, nr, advice, 0));
	close(fd);
	return r;
}

long mmf_exec_process_madvise(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	struct iovec iov;
	int fd;

	iov.iov_base = mmf_range_addr(in, s, (long *)&iov.iov_len);
	if (s->args[3] == MMF_TARGET_SELF)
		return pmadvise_self(&iov, 1, s->args[4]);
	fd = in->pidfds[s->args[3] - 1];
	if (fd < 0)
		return -ESRCH;
	return mmf_ret(syscall(SYS_process_madvise, fd, &iov, 1, s->args[4], 0));
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
	r = pmadvise_self(iov, 2, s->args[6]);
	return r < 0 ? r : r / in->psz;
}
