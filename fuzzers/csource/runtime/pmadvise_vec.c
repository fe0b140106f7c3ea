// SPDX-License-Identifier: GPL-2.0
/* process_madvise() of two ranges on this process: the pages it advised. */
static long pmadvise_vec(void *addr, long size, void *addr2, long size2, int advice)
{
	struct iovec iov[2] = { { addr, size }, { addr2, size2 } };
	long r;
	int fd;

	fd = syscall(SYS_pidfd_open, getpid(), 0);
	if (fd < 0)
		return -errno;
	r = sys(syscall(SYS_process_madvise, fd, iov, 2, advice, 0));
	close(fd);
	return r < 0 ? r : r / psz;
}
