// SPDX-License-Identifier: GPL-2.0
/*
 * mmap at a place of the arena, as the executor does: anonymous when f < 0,
 * else file slot f from file page off; the flags carry MAP_FIXED or
 * MAP_FIXED_NOREPLACE.
 */
static long map_at(int slot, int pg, int n, long prot, long flags, int f, int off)
{
	char *addr = at(slot, pg);
	long r;

	if (f >= 0 && files[f] < 0)
		return -EBADF;
	r = syscall(SYS_mmap, addr, len(n), prot, flags, f < 0 ? -1 : files[f], len(off));
	if (r == -1)
		return -errno;
	if ((char *)r != addr) {
		/* A kernel without MAP_FIXED_NOREPLACE takes it as a hint. */
		syscall(SYS_munmap, r, len(n));
		return -EEXIST;
	}
	return 0;
}
