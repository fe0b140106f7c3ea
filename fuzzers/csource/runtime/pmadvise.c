// SPDX-License-Identifier: GPL-2.0
/* process_madvise() on this process (c < 0) or on child c, by pidfd. */
static long pmadvise(int c, void *addr, long size, int advice)
{
	struct iovec iov = { addr, size };
	long r;
	int fd;

	if (c >= 0)
		return pidfds[c] < 0 ? -ESRCH :
		       sys(syscall(SYS_process_madvise, pidfds[c], &iov, 1, advice, 0));
	fd = syscall(SYS_pidfd_open, getpid(), 0);
	if (fd < 0)
		return -errno;
	r = sys(syscall(SYS_process_madvise, fd, &iov, 1, advice, 0));
	close(fd);
	return r;
}
