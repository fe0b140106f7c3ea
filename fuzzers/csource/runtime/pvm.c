// SPDX-License-Identifier: GPL-2.0
/* process_vm_readv/writev with this process (c < 0) or child c; pages done. */
static long pvm(int write, void *local, int c, void *remote, int n)
{
	struct iovec l = { local, len(n) }, rm = { remote, len(n) };
	pid_t pid = c < 0 ? getpid() : kids[c];
	long r;

	if (c >= 0 && (pid <= 0 || pidfds[c] < 0))
		return -ESRCH;
	r = rt_ret(syscall(write ? SYS_process_vm_writev : SYS_process_vm_readv, pid, &l, 1,
			&rm, 1, 0));
	return r < 0 ? r : r / psz;
}
