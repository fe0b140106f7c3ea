/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The file family: the file slots (memfd, tmpfile, memfd_secret,
 * /dev/zero), their size, and pread/pwrite through a file while it may be
 * mapped.
 */
#ifndef MMF_RUNTIME_FILE_H
#define MMF_RUNTIME_FILE_H

#include <stdint.h>
#include <stdlib.h>
#include <sys/vfs.h>

#include "runtime/base.h"

#define RT_HUGETLBFS_MAGIC	0x958458f6

/* hugetlbfs sizes are whole huge pages: round up, or the kernel refuses. */
static inline off_t rt_file_size(int fd, long bytes)
{
	struct statfs st;

	if (fstatfs(fd, &st) || st.f_type != RT_HUGETLBFS_MAGIC || st.f_bsize <= 0)
		return bytes;
	return (bytes + st.f_bsize - 1) / st.f_bsize * st.f_bsize;
}

/*
 * Put fd, a new file (< 0: the -errno of the call that made it), in file
 * slot *slot, sized to bytes first unless 0; 0 or -errno, fd closed on
 * failure.
 */
static inline long rt_set_file(int *slot, long fd, long bytes)
{
	int e;

	if (fd < 0)
		return fd;
	if (bytes && ftruncate(fd, rt_file_size(fd, bytes))) {
		e = errno;
		close(fd);
		return -e;
	}
	if (*slot >= 0)
		close(*slot);
	*slot = fd;
	return 0;
}

static inline long rt_ftruncate(int fd, long bytes)
{
	return fd < 0 ? -EBADF : rt_ret(ftruncate(fd, rt_file_size(fd, bytes)));
}

/*
 * n pages of psz bytes from file page pg, page by page so that a failure
 * never leaves a page half written: by pwrite when fill is given, every
 * word of a page fill(page, arg); else by pread, each page read handed to
 * seen(page, buf, arg) when that is given. The pages done, or -errno when
 * none was.
 */
static inline long rt_file_pages(int fd, int pg, int n, long psz,
				 uint64_t (*fill)(int page, void *arg),
				 void (*seen)(int page, const uint64_t *buf, void *arg), void *arg)
{
	uint64_t *buf, w;
	long done = 0, r = 0;
	int e = 0;

	if (fd < 0)
		return -EBADF;
	buf = malloc(psz);
	if (!buf)
		return -ENOMEM;
	for (; done < n; done++) {
		w = fill ? fill(pg + done, arg) : 0;
		for (long i = 0; fill && i < psz / 8; i++)
			buf[i] = w;
		r = fill ? pwrite(fd, buf, psz, (pg + done) * psz) :
			   pread(fd, buf, psz, (pg + done) * psz);
		e = errno;
		if (r != psz)
			break;
		if (seen)
			seen(pg + done, buf, arg);
	}
	free(buf);
	return done || r >= 0 ? done : -e;
}

#endif
