// SPDX-License-Identifier: GPL-2.0
static long place_move(int c, char *addr, long size, int node)
{
	static void *pages[SLOT_PAGES];
	static int nodes[SLOT_PAGES], status[SLOT_PAGES];
	long n = size / psz, pid = target_pid(c);

	if (pid < 0)
		return pid;
	for (long i = 0; i < n; i++) {
		pages[i] = addr + i * psz;
		nodes[i] = node;
	}
	return sys(syscall(SYS_move_pages, pid, n, pages, node >= 0 ? nodes : NULL, status, 0));
}
