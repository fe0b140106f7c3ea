// SPDX-License-Identifier: GPL-2.0
static long incore(void *addr, long size)
{
	unsigned char vec[SLOT_PAGES];

	return rt_ret(syscall(SYS_mincore, addr, size, vec));
}
