// SPDX-License-Identifier: GPL-2.0
/*
 * The C reproducer's pin calls, on the runtime the executor's exec/pins.c
 * and exec/uring.c have, written out. A pipe's content is not checked (the
 * reproducer reads and drops it); the pages the pin calls write are, by
 * the reads after them.
 */
#include "csource/emit.h"

static bool usable(const struct mmf_shadow *sh, int idx, bool write)
{
	const struct mmf_shadow_page *pg = &sh->pages[idx];

	return pg->mapped && !pg->guard && pg->prot != 0 &&
	       (!write || pg->prot == MMF_CS_PROT_UNKNOWN || (pg->prot & MMF_PROT_WRITE));
}

/* Leading pages of [idx, idx + n) a GUP of that kind gets, or -EFAULT. */
static long leading(const struct mmf_shadow *sh, int idx, int n, bool write)
{
	long i = 0;

	while (i < n && usable(sh, idx + i, write))
		i++;
	return i ? i : -EFAULT;
}

static int file_pages(const struct mmf_shadow *sh, int f)
{
	int o = sh->file_obj[f];

	return o < 0 ? -1 : sh->objs[o].npages;
}

static MMF_CS_EXPR(emit_vmsplice)
{
	mmf_sb_printf(sb, "pages(rt_vmsplice(&pins, %d, ", (int)s->args[3] % MMF_NR_PIPES);
	mmf_cs_at_len(sb, s);
	mmf_sb_puts(sb, ", psz))");
}

static MMF_CS_PREDICT(predict_vmsplice)
{
	const struct mmf_pipe *pp = &sh->pins.pipes[s->args[3] % MMF_NR_PIPES];
	long r = leading(sh, idx, MIN(n, MMF_PIPE_PAGES - pp->nr), false);

	return pp->nr == MMF_PIPE_PAGES ? -EAGAIN : r;
}

MMF_EMITTER(vmsplice, emit_vmsplice, predict_vmsplice, mmf_rt_pin, mmf_rt_pins);

static MMF_CS_EXPR(emit_pipe_read)
{
	mmf_sb_printf(sb, "pages(rt_pipe_read(&pins, %d, len(%d), psz, NULL, NULL))",
		  (int)s->args[0] % MMF_NR_PIPES, (int)s->args[1]);
}

static MMF_CS_PREDICT(predict_pipe_read)
{
	return MIN((long)s->args[1], (long)sh->pins.pipes[s->args[0] % MMF_NR_PIPES].nr);
}

MMF_EMITTER(pipe_read, emit_pipe_read, predict_pipe_read, mmf_rt_pin, mmf_rt_pins);

static MMF_CS_EXPR(emit_uring_register)
{
	mmf_sb_puts(sb, "rt_ring_register(&pins, ");
	mmf_cs_at_len(sb, s);
	mmf_sb_puts(sb, ")");
}

static MMF_CS_PREDICT(predict_uring_register)
{
	return leading(sh, idx, n, true) == n ? 0 : -EFAULT;
}

MMF_EMITTER(uring_register, emit_uring_register, predict_uring_register, mmf_rt_pin,
	    mmf_rt_pins);

/* pages(fn(write, files[f], addr, len, file offset)), fn's first argument first */
static void file_io(struct strbuf *sb, const struct mmf_stmt *s, const char *fn, int write)
{
	mmf_sb_printf(sb, "pages(%s%d, files[%d], ", fn, write, (int)s->args[3]);
	mmf_cs_at_len(sb, s);
	mmf_sb_printf(sb, ", len(%d)))", (int)s->args[4]);
}

/* Reads stop at the end of the file; writes grow it. */
static long file_io_result(const struct mmf_shadow *sh, const struct mmf_stmt *s, int n,
			   bool to_memory)
{
	int fp = file_pages(sh, s->args[3]);

	if (fp < 0)
		return -EBADF;
	return to_memory ? MAX(0, MIN(n, fp - (int)s->args[4])) : n;
}

/* The fixed buffer must hold the whole range. */
static long fixed_result(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n,
			 bool to_memory)
{
	const struct mmf_pins *pn = &sh->pins;

	if (file_pages(sh, s->args[3]) < 0)
		return -EBADF;
	if (!pn->ring_n || idx < pn->ring_idx || idx + n > pn->ring_idx + pn->ring_n)
		return -EFAULT;
	return file_io_result(sh, s, n, to_memory);
}

static MMF_CS_EXPR(emit_uring_read_fixed)
{
	file_io(sb, s, "rt_ring_rw(&pins, ", 0);
}

static MMF_CS_PREDICT(predict_uring_read_fixed)
{
	return fixed_result(sh, s, idx, n, true);
}

MMF_EMITTER(uring_read_fixed, emit_uring_read_fixed, predict_uring_read_fixed, mmf_rt_pin,
	    mmf_rt_pins);

static MMF_CS_EXPR(emit_uring_write_fixed)
{
	file_io(sb, s, "rt_ring_rw(&pins, ", 1);
}

static MMF_CS_PREDICT(predict_uring_write_fixed)
{
	return fixed_result(sh, s, idx, n, false);
}

MMF_EMITTER(uring_write_fixed, emit_uring_write_fixed, predict_uring_write_fixed,
	    mmf_rt_pin, mmf_rt_pins);

static MMF_CS_EXPR(emit_dio_file)
{
	mmf_sb_printf(sb, "rt_set_file(&files[%d], rt_ret(open(\"/var/tmp\", O_TMPFILE | O_RDWR | "
		  "O_CLOEXEC, 0600)), len(%d))", (int)s->args[0], (int)s->args[1]);
}

MMF_EMITTER(dio_file, emit_dio_file, mmf_predict_success, mmf_rt_file);

/* O_DIRECT pins the pages it moves: as far as they can be. */
static long dio_result(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n,
		       bool to_memory)
{
	long r = file_io_result(sh, s, n, to_memory);

	if (r <= 0)
		return r;
	return MIN(r, leading(sh, idx, r, to_memory));
}

static MMF_CS_EXPR(emit_dio_read)
{
	file_io(sb, s, "rt_dio(", 0);
}

static MMF_CS_PREDICT(predict_dio_read)
{
	return dio_result(sh, s, idx, n, true);
}

MMF_EMITTER(dio_read, emit_dio_read, predict_dio_read, mmf_rt_pin);

static MMF_CS_EXPR(emit_dio_write)
{
	file_io(sb, s, "rt_dio(", 1);
}

static MMF_CS_PREDICT(predict_dio_write)
{
	return dio_result(sh, s, idx, n, false);
}

MMF_EMITTER(dio_write, emit_dio_write, predict_dio_write, mmf_rt_pin);

/* The arena page the remote range starts at. */
static int remote_page(const struct mmf_stmt *s)
{
	return s->args[4] * MMF_SLOT_PAGES + s->args[5];
}

static void emit_pvm(struct strbuf *sb, const struct mmf_stmt *s, int write)
{
	int idx, n, r = remote_page(s);

	mmf_cs_range(s, &idx, &n);
	mmf_sb_printf(sb, "pages(rt_pvm(kids, pidfds, %d, %d, ", mmf_cs_target(s, 3), write);
	mmf_cs_at(sb, idx);
	mmf_sb_puts(sb, ", ");
	mmf_cs_at(sb, r);
	mmf_sb_printf(sb, ", len(%d)))", mmf_slot_clip(r, n));
}

/* Pages both sides get; a child's side is not the model's. */
static long pvm_result(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n,
		       bool to_local)
{
	int r = remote_page(s);
	long a, b;

	n = mmf_slot_clip(r, n);
	a = leading(sh, idx, n, to_local);
	if (s->args[3] != MMF_TARGET_SELF || a < 0)
		return a;
	b = leading(sh, r, n, !to_local);
	return b < 0 ? b : MIN(a, b);
}

static MMF_CS_EXPR(emit_process_vm_readv)
{
	emit_pvm(sb, s, 0);
}

static MMF_CS_PREDICT(predict_process_vm_readv)
{
	return pvm_result(sh, s, idx, n, true);
}

MMF_EMITTER(process_vm_readv, emit_process_vm_readv, predict_process_vm_readv, mmf_rt_pin);

static MMF_CS_EXPR(emit_process_vm_writev)
{
	emit_pvm(sb, s, 1);
}

static MMF_CS_PREDICT(predict_process_vm_writev)
{
	return pvm_result(sh, s, idx, n, false);
}

MMF_EMITTER(process_vm_writev, emit_process_vm_writev, predict_process_vm_writev,
	    mmf_rt_pin);
