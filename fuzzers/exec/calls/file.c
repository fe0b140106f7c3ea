// SPDX-License-Identifier: GPL-2.0
/*
 * The file family: the file slots. memfd and tmpfile; memfd_create with
 * flags (sealing, hugetlb), memfd_secret, /dev/zero; seals, fallocate,
 * ftruncate, and pread/pwrite through the file while it may be mapped.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "exec/calls.h"
#include "model/uapi.h"
#include "oracle/shadow.h"

long mmf_exec_set_file(struct mmf_interp *in, int f, off_t bytes, int fd)
{
	if (fd < 0)
		return -errno;
	if (bytes && ftruncate(fd, bytes)) {
		int e = errno;

		close(fd);
		return -e;
	}
	if (in->files[f] >= 0)
		close(in->files[f]);
	in->files[f] = fd;
	return 0;
}

/* Replace file slot fN with a new file of npages pages. */
static long new_file(struct mmf_interp *in, const struct mmf_stmt *s, int fd)
{
	return mmf_exec_set_file(in, s->args[0], (off_t)s->args[1] * in->psz, fd);
}

long mmf_exec_memfd(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return new_file(in, s, memfd_create("mmfuzz", MFD_CLOEXEC));
}

long mmf_exec_tmpfile(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	const char *dir = in->o->tmpdir ? in->o->tmpdir : "/dev/shm";

	return new_file(in, s, open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600));
}

/* hugetlbfs sizes are whole huge pages: round up, or the kernel refuses. */
static off_t file_size(int fd, long bytes)
{
	struct statfs st;

	if (fstatfs(fd, &st) || st.f_type != MMF_HUGETLBFS_MAGIC || st.f_bsize <= 0)
		return bytes;
	return (bytes + st.f_bsize - 1) / st.f_bsize * st.f_bsize;
}

/* Replace file slot f with fd, sized npages pages (0: as it is). */
static long set_file(struct mmf_interp *in, int f, int npages, int fd)
{
	return mmf_exec_set_file(in, f, npages && fd >= 0 ?
				 file_size(fd, (long)npages * in->psz) : 0, fd);
}

long mmf_exec_memfd_create(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return set_file(in, s->args[0], s->args[1],
			syscall(SYS_memfd_create, "mmfuzz", MFD_CLOEXEC | s->args[2]));
}

long mmf_exec_memfd_secret(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return set_file(in, s->args[0], s->args[1], syscall(MMF_NR_MEMFD_SECRET, O_CLOEXEC));
}

long mmf_exec_devzero(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return set_file(in, s->args[0], 0, open("/dev/zero", O_RDWR | O_CLOEXEC));
}

static int file_fd(struct mmf_interp *in, const struct mmf_stmt *s)
{
	return in->files[s->args[0]];
}

long mmf_exec_memfd_seal(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	int fd = file_fd(in, s);

	return fd < 0 ? -EBADF : mmf_ret(fcntl(fd, MMF_F_ADD_SEALS, (int)s->args[1]));
}

long mmf_exec_fallocate(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	int fd = file_fd(in, s);

	if (fd < 0)
		return -EBADF;
	return mmf_ret(syscall(SYS_fallocate, fd, (int)s->args[3], (off_t)s->args[1] * in->psz,
			       (off_t)s->args[2] * in->psz));
}

long mmf_exec_ftruncate(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	int fd = file_fd(in, s);

	if (fd < 0)
		return -EBADF;
	return mmf_ret(ftruncate(fd, file_size(fd, (long)s->args[1] * in->psz)));
}

/* Page by page, so that a failure never leaves a page half written. */
long mmf_exec_pwrite(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	int fd = file_fd(in, s);
	uint64_t *buf;
	long done = 0, r = 0;
	int e = 0;

	if (fd < 0)
		return -EBADF;
	buf = mmf_xmalloc(in->psz);
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

static void report_file_page(struct mmf_interp *in, int si, int pg, const struct mmf_vset *vs,
			     const uint64_t *buf, long nbad)
{
	struct strbuf sb;

	mmf_sb_init(&sb);
	mmf_sb_printf(&sb, "DATA CORRUPTION: %s file page read by pread\n",
		  nbad ? "torn" : buf[0] ? "wrong" : "zeroed");
	mmf_sb_printf(&sb, "file: f%d page %d, read by statement %d\nexpected:",
		  (int)in->p->stmts[si].args[0], pg, si);
	for (int i = 0; i < vs->n; i++)
		mmf_sb_printf(&sb, " %s0x%016llx", i ? "or " : "", (unsigned long long)vs->v[i]);
	mmf_sb_printf(&sb, "\nobserved: 0x%016llx at byte 0; %ld words differ from it\n",
		  (unsigned long long)buf[0], nbad);
	mmf_interp_report(in, sb.buf, sb.len);
	mmf_sb_free(&sb);
}

/* Read pages through the file and check them against the model. */
long mmf_exec_pread(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	int fd = file_fd(in, s);
	long done = 0, r = 0, words = in->psz / 8;
	uint64_t *buf;
	int e = 0;

	if (fd < 0)
		return -EBADF;
	buf = mmf_xmalloc(in->psz);
	for (; done < (long)s->args[2]; done++) {
		int pg = s->args[1] + done;
		struct mmf_vset vs;
		long nbad = 0;
		bool known, ok = false;

		r = pread(fd, buf, in->psz, (off_t)pg * in->psz);
		e = errno;
		if (r != in->psz)
			break;
		mmf_model_lock(in);
		known = mmf_shadow_expect_file(in->sh, s->args[0], pg, &vs);
		mmf_model_unlock(in);
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
