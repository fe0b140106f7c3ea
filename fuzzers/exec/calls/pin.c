// SPDX-License-Identifier: GPL-2.0
/*
 * The pin family (runtime/pin.h): vmsplice into the process's own pipes
 * and reading them back, io_uring registered buffers with READ_FIXED and
 * WRITE_FIXED, O_DIRECT between a block-backed file and memory, and
 * process_vm_readv/writev with this process or a child. Results are pages
 * done; every range is page-aligned and the files are sized in pages, so
 * the kernel stops at page boundaries. What the executor adds: the check of
 * what comes out of a pipe against the model, and the --corrupt-pin hook.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "exec/calls.h"
#include "model/uapi.h"
#include "runtime/file.h"
#include "runtime/pin.h"

/* A real block device's file system: O_DIRECT reaches the disk. */
#define DIO_DIR		"/var/tmp"

/* This process's pipes and ring (a fork child's are its own). */
static struct rt_pins st;

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
	int idx, n;
	long r;

	mmf_stmt_range(s, &idx, &n);
	r = rt_vmsplice(&st, s->args[3] % MMF_NR_PIPES, mmf_page_addr(in, idx), (long)n * in->psz,
			in->psz);
	if (r >= 0)
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

/* The statement a pipe_read works for, for the runtime's callback. */
struct pipe_call {
	struct mmf_interp *in;
	int p, si;
};

static void check_pipe_page(int k, const uint64_t *pg, void *arg)
{
	const struct pipe_call *pc = arg;
	struct mmf_interp *in = pc->in;
	int p = pc->p, si = pc->si;
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
	struct pipe_call pc = { in, s->args[0] % MMF_NR_PIPES, si };

	return pages(in, rt_pipe_read(&st, pc.p, (long)s->args[1] * in->psz, in->psz,
				      check_pipe_page, &pc));
}

long mmf_exec_uring_register(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);

	return rt_ring_register(&st, addr, len);
}

static long uring_fixed(struct mmf_interp *in, const struct mmf_stmt *s, int si, bool write)
{
	int idx, n;
	long r;

	mmf_stmt_range(s, &idx, &n);
	r = rt_ring_rw(&st, write, in->files[s->args[3]], mmf_page_addr(in, idx),
		       (long)n * in->psz, (off_t)s->args[4] * in->psz);
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

static long dio(struct mmf_interp *in, const struct mmf_stmt *s, int si, bool write)
{
	int idx, n;
	long r;

	mmf_stmt_range(s, &idx, &n);
	r = rt_dio(write, in->files[s->args[3]], mmf_page_addr(in, idx), (long)n * in->psz,
		   (off_t)s->args[4] * in->psz);
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
	int idx, n, ridx = s->args[4] * MMF_SLOT_PAGES + s->args[5];
	int c = (int)s->args[3] - 1;
	long r;

	mmf_stmt_range(s, &idx, &n);
	n = mmf_slot_clip(ridx, n);
	r = rt_pvm(in->kids, in->pidfds, c, write, mmf_page_addr(in, idx), mmf_page_addr(in, ridx),
		   (long)n * in->psz);
	if (r > 0)
		corrupt_pin(in, si, write ? (c < 0 ? ridx : -1) : idx);
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
