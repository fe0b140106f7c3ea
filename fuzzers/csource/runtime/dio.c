// SPDX-License-Identifier: GPL-2.0
/* O_DIRECT on file f for one call; pages done. */
static __attribute__((unused)) long dio(int write, void *addr, int n, int f, int fpage)
{
	int fl;
	long r;

	if (files[f] < 0)
		return -EBADF;
	fl = fcntl(files[f], F_GETFL);
	if (fl < 0 || fcntl(files[f], F_SETFL, fl | O_DIRECT))
		return -errno;
	r = write ? pwrite(files[f], addr, len(n), len(fpage)) :
		    pread(files[f], addr, len(n), len(fpage));
	r = r < 0 ? -errno : r / psz;
	fcntl(files[f], F_SETFL, fl);
	return r;
}
