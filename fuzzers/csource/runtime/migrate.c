// SPDX-License-Identifier: GPL-2.0
static long place_migrate(int c, int from, int to)
{
	unsigned long f = 1ul << from, t = 1ul << to;
	long pid = target_pid(c);

	return pid < 0 ? pid : sys(syscall(SYS_migrate_pages, pid, 65, &f, &t));
}
