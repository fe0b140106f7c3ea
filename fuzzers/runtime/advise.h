/* SPDX-License-Identifier: GPL-2.0 */
/* The advise family: process_madvise() on this process or a child. */
#ifndef MMF_RUNTIME_ADVISE_H
#define MMF_RUNTIME_ADVISE_H

#include <sys/uio.h>

#include "runtime/base.h"

/*
 * process_madvise() of iov[0..nr) on child c (by pidfds[c]) or, for c < 0,
 * on this process by a pidfd of its own: the bytes advised, or -errno.
 */
static inline long rt_process_madvise(const int *pidfds, int c, const struct iovec *iov, int nr,
				      int advice)
{
	int fd = c < 0 ? syscall(SYS_pidfd_open, getpid(), 0) : pidfds[c];
	long r;

	if (fd < 0)
		return c < 0 ? -errno : -ESRCH;
	r = rt_ret(syscall(SYS_process_madvise, fd, iov, (long)nr, advice, 0L));
	if (c < 0)
		close(fd);
	return r;
}

#endif
