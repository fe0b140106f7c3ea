// SPDX-License-Identifier: GPL-2.0
/* Replace file slot f with fd, a new file, sized to npages pages. */
static long new_file(int f, int npages, long fd)
{
	long e;

	if (fd < 0)
		return fd;
	if (ftruncate(fd, len(npages))) {
		e = -errno;
		close(fd);
		return e;
	}
	if (files[f] >= 0)
		close(files[f]);
	files[f] = fd;
	return 0;
}
