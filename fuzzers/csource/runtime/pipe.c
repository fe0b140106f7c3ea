// SPDX-License-Identifier: GPL-2.0
static long pipe_of(int p)
{
	pins_own();
	if (pipes[p][0] < 0) {
		if (pipe2(pipes[p], O_CLOEXEC | O_NONBLOCK))
			return -errno;
		fcntl(pipes[p][1], 1031 /* F_SETPIPE_SZ */, 64 * psz);
	}
	return 0;
}

/* vmsplice of up to 64 pages, never SPLICE_F_GIFT; pages spliced. */
static __attribute__((unused)) long splice_in(int p, void *addr, int n)
{
	struct iovec iov = { addr, len(n < 64 ? n : 64) };
	long r = pipe_of(p);

	if (r)
		return r;
	r = rt_ret(syscall(SYS_vmsplice, pipes[p][1], &iov, 1, 0x2 /* SPLICE_F_NONBLOCK */));
	return r < 0 ? r : r / psz;
}

/* Read up to n pages back out of pipe p; pages read. */
static __attribute__((unused)) long pipe_drain(int p, int n)
{
	long want = len(n < 64 ? n : 64), got = 0, r = pipe_of(p);
	char *buf;

	if (r)
		return r;
	buf = malloc(want);
	if (!buf)
		return -ENOMEM;
	while (got < want && ((r = read(pipes[p][0], buf + got, want - got)) > 0 ||
			       (r < 0 && errno == EINTR)))
		got += r > 0 ? r : 0;
	free(buf);
	return got / psz;
}
