// SPDX-License-Identifier: GPL-2.0
static long place_mbind(void *addr, long size, int mode, int node, int flags)
{
	unsigned long mask = node >= 0 ? 1ul << node : 0;

	return sys(syscall(SYS_mbind, addr, size, mode, node >= 0 ? &mask : NULL,
			   node >= 0 ? 65 : 0, flags));
}
