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
#include "runtime/file.h"

/* Replace file slot fN with fd (or -errno), npages pages unless 0. */
static long set_file(struct mmf_interp *in, int f, int npages, long fd)
{
	return rt_set_file(&in->files[f], fd, (long)npages * in->psz);
}

long mmf_exec_memfd(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return set_file(in, s->args[0], s->args[1], rt_ret(memfd_create("mmfuzz", MFD_CLOEXEC)));
}

long mmf_exec_tmpfile(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	const char *dir = in->o->tmpdir ? in->o->tmpdir : "/dev/shm";

	return set_file(in, s->args[0], s->args[1],
			rt_ret(open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)));
}

long mmf_exec_memfd_create(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return set_file(in, s->args[0], s->args[1],
			rt_ret(syscall(SYS_memfd_create, "mmfuzz", MFD_CLOEXEC | s->args[2])));
}

long mmf_exec_memfd_secret(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return set_file(in, s->args[0], s->args[1], rt_ret(syscall(SYS_memfd_secret, O_CLOEXEC)));
}

long mmf_exec_devzero(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return set_file(in, s->args[0], 0, rt_ret(open("/dev/zero", O_RDWR | O_CLOEXEC)));
}

static int file_fd(struct mmf_interp *in, const struct mmf_stmt *s)
{
	return in->files[s->args[0]];
}

long mmf_exec_memfd_seal(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	int fd = file_fd(in, s);

	return fd < 0 ? -EBADF : rt_ret(fcntl(fd, MMF_F_ADD_SEALS, (int)s->args[1]));
}

long mmf_exec_fallocate(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	int fd = file_fd(in, s);

	if (fd < 0)
		return -EBADF;
	return rt_ret(syscall(SYS_fallocate, fd, (int)s->args[3], (off_t)s->args[1] * in->psz,
			      (off_t)s->args[2] * in->psz));
}

long mmf_exec_ftruncate(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return rt_ftruncate(file_fd(in, s), (long)s->args[1] * in->psz);
}

/* The statement a pread or pwrite works for, for the runtime's callbacks. */
struct file_call {
	struct mmf_interp *in;
	const struct mmf_stmt *s;
	int si;
};

static uint64_t file_word(int pg, void *arg)
{
	const struct file_call *fc = arg;

	return mmf_shadow_file_word(fc->in->sh, fc->s->args[3], pg);
}

long mmf_exec_pwrite(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	struct file_call fc = { in, s, si };

	return rt_file_pages(file_fd(in, s), s->args[1], s->args[2], in->psz, file_word, NULL, &fc);
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

/* A page read through the file, checked against the model. */
static void file_seen(int pg, const uint64_t *buf, void *arg)
{
	const struct file_call *fc = arg;
	struct mmf_interp *in = fc->in;
	struct mmf_vset vs;
	long nbad = 0;
	bool known, ok = false;

	mmf_model_lock(in);
	known = mmf_shadow_expect_file(in->sh, fc->s->args[0], pg, &vs);
	mmf_model_unlock(in);
	if (!known)
		return;
	for (int i = 0; i < vs.n; i++)
		ok |= vs.v[i] == buf[0];
	for (long i = 1; i < in->psz / 8; i++)
		nbad += buf[i] != buf[0];
	if (!ok || nbad)
		report_file_page(in, fc->si, pg, &vs, buf, nbad);
}

long mmf_exec_pread(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	struct file_call fc = { in, s, si };

	return rt_file_pages(file_fd(in, s), s->args[1], s->args[2], in->psz, NULL, file_seen, &fc);
}
