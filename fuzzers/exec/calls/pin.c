// SPDX-License-Identifier: GPL-2.0
/*
 * The pin family: vmsplice into the process's own pipes
 * and reading them back, io_uring registered buffers with READ_FIXED and
 * WRITE_FIXED, O_DIRECT between a block-backed file and memory, and
 * process_vm_readv/writev with this process or a child.
 *
 * The pipes and the ring belong to one process: they are made on first use,
 * and a fork child that uses them makes its own (the owner pid differs), so
 * the model of each process knows every page in them. Results are pages
 * done; every range is page-aligned and the files are sized in pages, so
 * the kernel stops at page boundaries.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "exec/calls.h"
#include "runtime/file.h"
#include "exec/uring.h"
#include "model/uapi.h"

/* A real block device's file system: O_DIRECT reaches the disk. */
#define DIO_DIR		"/var/tmp"

static struct {
	pid_t owner;
	pthread_mutex_t lock;	/* the ring's rings are not for two threads at once */
	int pipes[MMF_NR_PIPES][2];
	bool ring_tried;
	int ring_err;
	struct mmf_uring ring;
} st;

/* This process's state; a fork child starts afresh (its parent's fds stay). */
static void own(void)
{
	if (st.owner == getpid())
		return;
	memset(&st, 0, sizeof(st));
	st.owner = getpid();
	pthread_mutex_init(&st.lock, NULL);
	for (int p = 0; p < MMF_NR_PIPES; p++)
		st.pipes[p][0] = st.pipes[p][1] = -1;
}

static int pipe_of(struct mmf_interp *in, int p)
{
	own();
	if (st.pipes[p][0] < 0) {
		if (pipe2(st.pipes[p], O_CLOEXEC | O_NONBLOCK))
			return -errno;
		/* Room for MMF_PIPE_PAGES pages; the model works from the results. */
		fcntl(st.pipes[p][1], MMF_F_SETPIPE_SZ, MMF_PIPE_PAGES * in->psz);
	}
	return 0;
}

/* --corrupt-pin: change arena page idx behind the model's back, as a
 * kernel that lost a pinned page's data would.
 */
static void corrupt_pin(struct mmf_interp *in, int si, int idx)
{
	uint64_t junk[512];
	int fd;

	if (in->o->corrupt_pin != si + 1 || idx < 0 || idx >= MMF_ARENA_PAGES)
		return;
	fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	for (size_t i = 0; i < ARRAY_SIZE(junk); i++)
		junk[i] = 0x5a5a5a5a00000000ull | i;
	if (fd < 0 || pwrite(fd, junk, MIN((long)sizeof(junk), in->psz),
			     (uintptr_t)mmf_page_addr(in, idx)) <= 0)
		mmf_warnx_("test hook: --corrupt-pin: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
}

static long pages(struct mmf_interp *in, long r)
{
	return r < 0 ? r : r / in->psz;
}

long mmf_exec_vmsplice(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	struct iovec iov;
	int idx, n, p = s->args[3] % MMF_NR_PIPES, e = pipe_of(in, p);
	long r;

	if (e)
		return e;
	mmf_stmt_range(s, &idx, &n);
	iov.iov_base = mmf_page_addr(in, idx);
	iov.iov_len = MIN(n, MMF_PIPE_PAGES) * in->psz;
	/* Never SPLICE_F_GIFT: the pages stay the process's. */
	r = syscall(SYS_vmsplice, st.pipes[p][1], &iov, 1, MMF_SPLICE_F_NONBLOCK);
	if (r < 0)
		return -errno;
	corrupt_pin(in, si, idx);
	return pages(in, r);
}

static const char *pipe_class(const struct mmf_interp *in, const uint64_t *pg, long words, bool *ok,
			      const struct mmf_vset *vs)
{
	bool uniform = true;

	for (long i = 1; i < words && uniform; i++)
		uniform = pg[i] == pg[0];
	*ok = false;
	for (int i = 0; uniform && i < vs->n; i++)
		*ok |= vs->v[i] == pg[0];
	if (uniform && !pg[0])
		return "zeroed";
	if (uniform && (pg[0] >> 32 & 0xffffff) == in->sh->nonce)
		return "stale";
	return uniform ? "foreign" : "garbage";
}

static void check_pipe_page(struct mmf_interp *in, int p, int k, const uint64_t *pg, int si)
{
	const struct mmf_pipe *pp = &in->sh->pins.pipes[p];
	const struct mmf_pipe_ent *e;
	struct mmf_vset vs;
	long words = in->psz / 8;
	const char *cls;
	struct strbuf sb;
	bool ok;

	mmf_model_lock(in);
	e = k < pp->nr ? &pp->e[(pp->head + k) % MMF_PIPE_PAGES] : NULL;
	vs = e ? e->v : (struct mmf_vset){ 0 };
	mmf_model_unlock(in);
	if (!vs.n)
		return;
	cls = pipe_class(in, pg, words, &ok, &vs);
	if (ok)
		return;
	mmf_sb_init(&sb);
	mmf_sb_printf(&sb, "DATA CORRUPTION: %s pipe data after vmsplice\n", cls);
	mmf_sb_printf(&sb, "pipe: p%d, page %d of the read by statement %d, spliced by statement %d\n",
		  p, k, si, e->si);
	mmf_sb_puts(&sb, "expected:");
	for (int i = 0; i < vs.n; i++)
		mmf_sb_printf(&sb, " %s0x%016llx", i ? "or " : "", (unsigned long long)vs.v[i]);
	mmf_sb_printf(&sb, "\nobserved: 0x%016llx at byte 0, 0x%016llx at the end\n",
		  (unsigned long long)pg[0], (unsigned long long)pg[words - 1]);
	mmf_sb_printf(&sb, "  %d: ", e->si);
	mmf_stmt_print(&in->p->stmts[e->si], &sb);
	mmf_sb_puts(&sb, "\n");
	mmf_interp_report(in, sb.buf, sb.len);
	mmf_sb_free(&sb);
}

long mmf_exec_pipe_read(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	int p = s->args[0] % MMF_NR_PIPES, e = pipe_of(in, p);
	long want = MIN((long)s->args[1], MMF_PIPE_PAGES) * in->psz, got = 0;
	char *buf;

	if (e)
		return e;
	buf = aligned_alloc(in->psz, want);
	if (!buf)
		return -ENOMEM;
	while (got < want) {
		long r = read(st.pipes[p][0], buf + got, want - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += r;
	}
	for (long k = 0; k < got / in->psz; k++)
		check_pipe_page(in, p, k, (const uint64_t *)(buf + k * in->psz), si);
	free(buf);
	return got / in->psz;
}

static int ring(void)
{
	own();
	if (!st.ring_tried) {
		st.ring_tried = true;
		st.ring_err = mmf_uring_init(&st.ring, 4);
	}
	return st.ring_err;
}

long mmf_exec_uring_register(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	int idx, n, e = ring();

	if (e)
		return e;
	mmf_stmt_range(s, &idx, &n);
	pthread_mutex_lock(&st.lock);
	e = mmf_uring_register(&st.ring, mmf_page_addr(in, idx), (size_t)n * in->psz);
	pthread_mutex_unlock(&st.lock);
	return e;
}

static long uring_fixed(struct mmf_interp *in, const struct mmf_stmt *s, int si, bool write)
{
	int idx, n, fd = in->files[s->args[3]], e = ring();
	long r;

	if (e)
		return e;
	if (fd < 0)
		return -EBADF;
	mmf_stmt_range(s, &idx, &n);
	pthread_mutex_lock(&st.lock);
	r = mmf_uring_rw_fixed(&st.ring, write, fd, mmf_page_addr(in, idx), (size_t)n * in->psz,
			       (off_t)s->args[4] * in->psz);
	pthread_mutex_unlock(&st.lock);
	if (r > 0 && !write)
		corrupt_pin(in, si, idx);
	return pages(in, r);
}

long mmf_exec_uring_read_fixed(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return uring_fixed(in, s, si, false);
}

long mmf_exec_uring_write_fixed(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return uring_fixed(in, s, si, true);
}

long mmf_exec_dio_file(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return rt_set_file(&in->files[s->args[0]],
			   rt_ret(open(DIO_DIR, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)),
			   (long)s->args[1] * in->psz);
}

/* O_DIRECT on the shared descriptor for the one call: the flag is per file. */
static long dio(struct mmf_interp *in, const struct mmf_stmt *s, int si, bool write)
{
	int idx, n, fd = in->files[s->args[3]], fl;
	off_t off = (off_t)s->args[4] * in->psz;
	long r;

	if (fd < 0)
		return -EBADF;
	mmf_stmt_range(s, &idx, &n);
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_DIRECT))
		return -errno;
	r = write ? pwrite(fd, mmf_page_addr(in, idx), (size_t)n * in->psz, off) :
		    pread(fd, mmf_page_addr(in, idx), (size_t)n * in->psz, off);
	r = r < 0 ? -errno : r;
	fcntl(fd, F_SETFL, fl);
	if (r > 0 && !write)
		corrupt_pin(in, si, idx);
	return pages(in, r);
}

long mmf_exec_dio_read(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return dio(in, s, si, false);
}

long mmf_exec_dio_write(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return dio(in, s, si, true);
}

static long pvm(struct mmf_interp *in, const struct mmf_stmt *s, int si, bool write)
{
	struct iovec local, remote;
	int idx, n, ridx = s->args[4] * MMF_SLOT_PAGES + s->args[5];
	pid_t pid = getpid();
	long r;

	mmf_stmt_range(s, &idx, &n);
	n = mmf_slot_clip(ridx, n);
	if (s->args[3] != MMF_TARGET_SELF) {
		pid = in->kids[s->args[3] - 1];
		if (pid <= 0 || in->pidfds[s->args[3] - 1] < 0)
			return -ESRCH;
	}
	local = (struct iovec){ mmf_page_addr(in, idx), (size_t)n * in->psz };
	remote = (struct iovec){ mmf_page_addr(in, ridx), (size_t)n * in->psz };
	r = syscall(write ? SYS_process_vm_writev : SYS_process_vm_readv, pid, &local, 1,
		    &remote, 1, 0);
	if (r < 0)
		return -errno;
	if (r > 0)
		corrupt_pin(in, si, write ? (s->args[3] == MMF_TARGET_SELF ? ridx : -1) : idx);
	return pages(in, r);
}

long mmf_exec_process_vm_readv(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return pvm(in, s, si, false);
}

long mmf_exec_process_vm_writev(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return pvm(in, s, si, true);
}
