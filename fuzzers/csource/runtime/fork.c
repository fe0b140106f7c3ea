// SPDX-License-Identifier: GPL-2.0
/*
 * A fork block: the child runs its body, then lives until the join, where
 * the parent closes the pipe. libc's fork(), not the raw syscall: it keeps
 * the C library usable in the child of a threaded process.
 */
static long start_child(int c, void (*body)(void))
{
	pid_t pid;
	char ch;

	if (join_pipe[0] < 0 && pipe2(join_pipe, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		close(join_pipe[1]);
		nr_threads = 0;
		body();
		while (read(join_pipe[0], &ch, 1) < 0 && errno == EINTR)
			;
		_exit(corrupted ? 1 : 0);
	}
	if (pidfds[c] >= 0)
		close(pidfds[c]);
	kids[c] = pid;
	pidfds[c] = syscall(SYS_pidfd_open, pid, 0);
	return 0;
}
