// SPDX-License-Identifier: GPL-2.0
/*
 * File slots beyond memfd and tmpfile: memfd_create with flags (sealing,
 * hugetlb), memfd_secret, /dev/zero; seals, fallocate, ftruncate, and
 * pread/pwrite through the file while it may be mapped. Also mappings the
 * kernel backs with its own pages, placed in a map slot like any other
 * mapping: a perf ring buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "exec/calls_c.h"
#include "oracle/shadow.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
#ifndef F_ADD_SEALS
#define F_ADD_SEALS 1033
#endif
#ifndef SYS_memfd_secret
#define SYS_memfd_secret 447
#endif
#define MFD_HUGETLB_	0x4
#define HUGETLBFS_MAGIC_ 0x958458f6

static long ret(long r)
{
	return r < 0 ? -errno : r;
}

/* hugetlbfs sizes are whole huge pages: round up, or the kernel refuses. */
static off_t file_size(int fd, long bytes)
{
	struct statfs st;

	if (fstatfs(fd, &st) || st.f_type != HUGETLBFS_MAGIC_ || st.f_bsize <= 0)
		return bytes;
	return (bytes + st.f_bsize - 1) / st.f_bsize * st.f_bsize;
}

/* Replace file slot f with fd, sized npages pages (0: as it is). */
static long set_file(struct interp *in, int f, int npages, int fd)
{
	return mmf_exec_set_file(in, f, npages && fd >= 0 ?
				 file_size(fd, (long)npages * in->psz) : 0, fd);
}

long run_memfd_create(struct interp *in, const struct mmf_stmt *s, int si)
{
	return set_file(in, s->args[0], s->args[1],
			syscall(SYS_memfd_create, "mmfuzz", MFD_CLOEXEC | s->args[2]));
}

long run_memfd_secret(struct interp *in, const struct mmf_stmt *s, int si)
{
	return set_file(in, s->args[0], s->args[1], syscall(SYS_memfd_secret, O_CLOEXEC));
}

long run_devzero(struct interp *in, const struct mmf_stmt *s, int si)
{
	return set_file(in, s->args[0], 0, open("/dev/zero", O_RDWR | O_CLOEXEC));
}

static int file_fd(struct interp *in, const struct mmf_stmt *s)
{
	return in->files[s->args[0]];
}

long run_memfd_seal(struct interp *in, const struct mmf_stmt *s, int si)
{
	int fd = file_fd(in, s);

	return fd < 0 ? -EBADF : ret(fcntl(fd, F_ADD_SEALS, (int)s->args[1]));
}

long run_fallocate(struct interp *in, const struct mmf_stmt *s, int si)
{
	int fd = file_fd(in, s);

	if (fd < 0)
		return -EBADF;
	return ret(syscall(SYS_fallocate, fd, (int)s->args[3], (off_t)s->args[1] * in->psz,
			   (off_t)s->args[2] * in->psz));
}

long run_ftruncate(struct interp *in, const struct mmf_stmt *s, int si)
{
	int fd = file_fd(in, s);

	if (fd < 0)
		return -EBADF;
	return ret(ftruncate(fd, file_size(fd, (long)s->args[1] * in->psz)));
}

/* Page by page, so that a failure never leaves a page half written. */
long run_pwrite(struct interp *in, const struct mmf_stmt *s, int si)
{
	int fd = file_fd(in, s);
	uint64_t *buf;
	long done = 0, r = 0;
	int e = 0;

	if (fd < 0)
		return -EBADF;
	buf = xmalloc(in->psz);
	for (; done < (long)s->args[2]; done++) {
		uint64_t w = mmf_shadow_file_word(in->sh, s->args[3], s->args[1] + done);

		for (long i = 0; i < in->psz / 8; i++)
			buf[i] = w;
		r = pwrite(fd, buf, in->psz, ((off_t)s->args[1] + done) * in->psz);
		e = errno;
		if (r != in->psz)
			break;
	}
	free(buf);
	return done || r >= 0 ? done : -e;
}

static void report_file_page(struct interp *in, int si, int pg, const struct mmf_vset *vs,
			     const uint64_t *buf, long nbad)
{
	struct strbuf sb;

	sb_init(&sb);
	sb_printf(&sb, "DATA CORRUPTION: %s file page read by pread\n",
		  nbad ? "torn" : buf[0] ? "wrong" : "zeroed");
	sb_printf(&sb, "file: f%d page %d, read by statement %d\nexpected:",
		  (int)in->p->stmts[si].args[0], pg, si);
	for (int i = 0; i < vs->n; i++)
		sb_printf(&sb, " %s0x%016llx", i ? "or " : "", (unsigned long long)vs->v[i]);
	sb_printf(&sb, "\nobserved: 0x%016llx at byte 0; %ld words differ from it\n",
		  (unsigned long long)buf[0], nbad);
	emit_report(in, sb.buf, sb.len);
	sb_free(&sb);
}

/* Read pages through the file and check them against the model. */
long run_pread(struct interp *in, const struct mmf_stmt *s, int si)
{
	int fd = file_fd(in, s);
	long done = 0, r = 0, words = in->psz / 8;
	uint64_t *buf;
	int e = 0;

	if (fd < 0)
		return -EBADF;
	buf = xmalloc(in->psz);
	for (; done < (long)s->args[2]; done++) {
		int pg = s->args[1] + done;
		struct mmf_vset vs;
		long nbad = 0;
		bool known, ok = false;

		r = pread(fd, buf, in->psz, (off_t)pg * in->psz);
		e = errno;
		if (r != in->psz)
			break;
		if (in->nr_threads)
			pthread_mutex_lock(&in->lock);
		known = mmf_shadow_expect_file(in->sh, s->args[0], pg, &vs);
		if (in->nr_threads)
			pthread_mutex_unlock(&in->lock);
		if (!known)
			continue;
		for (int i = 0; i < vs.n; i++)
			ok |= vs.v[i] == buf[0];
		for (long i = 1; i < words; i++)
			nbad += buf[i] != buf[0];
		if (!ok || nbad)
			report_file_page(in, si, pg, &vs, buf, nbad);
	}
	free(buf);
	return done || r >= 0 ? done : -e;
}

/* The perf event behind special_map, per process, made on first use. */
static pthread_mutex_t special_lock = PTHREAD_MUTEX_INITIALIZER;
static int perf_fd = -1;

static int perf(void)
{
	struct perf_event_attr a;

	if (perf_fd >= 0)
		return perf_fd;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.exclude_kernel = 1;
	perf_fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return perf_fd < 0 ? -errno : perf_fd;
}

/*
 * Map a perf ring buffer at the range: the model loses the range (it does
 * not predict these pages), but mlock, madvise and the rest treat it like
 * any other mapping. Its length is the largest 1 + 2^n pages (a control
 * page, then data) within the range, which it returns.
 */
long run_special_map(struct interp *in, const struct mmf_stmt *s, int si)
{
	long pages;
	int idx, n, fd;
	void *r;

	mmf_stmt_range(s, &idx, &n);
	pthread_mutex_lock(&special_lock);
	fd = perf();
	pthread_mutex_unlock(&special_lock);
	if (fd < 0)
		return fd;
	for (pages = 1; pages * 2 + 1 <= n; pages *= 2)
		;
	pages = n == 1 ? 1 : pages + 1;
	r = mmap(page_addr(in, idx), pages * in->psz, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED_NOREPLACE, fd, 0);
	if (r == MAP_FAILED)
		return -errno;
	if (r != page_addr(in, idx)) {
		munmap(r, pages * in->psz);
		return -EEXIST;
	}
	return pages;
}
