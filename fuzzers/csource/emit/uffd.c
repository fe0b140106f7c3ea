// SPDX-License-Identifier: GPL-2.0
/*
 * The C reproducer's userfaultfd calls, on the runtime's uffd and handler
 * thread that resolve faults as the executor's (exec/uffd.c) do.
 */
#include "csource/emit.h"

static MMF_CS_EXPR(emit_uffd_create)
{
	mmf_sb_printf(sb, "uffd_open(%d, ", (int)s->args[0]);
	mmf_cs_flag_arg(sb, s, 1);
	mmf_sb_puts(sb, ")");
}

MMF_EMITTER(uffd_create, emit_uffd_create, mmf_predict_success, mmf_rt_uffd);

/* fn(slot, page, npages, mode argument arg) */
static void range_mode(struct strbuf *sb, const struct mmf_stmt *s, const char *fn, int arg)
{
	mmf_sb_printf(sb, "%s(", fn);
	mmf_cs_slot_range(sb, s);
	mmf_sb_puts(sb, ", ");
	mmf_cs_flag_arg(sb, s, arg);
	mmf_sb_puts(sb, ")");
}

static MMF_CS_EXPR(emit_uffd_register)
{
	range_mode(sb, s, "uffd_register", 3);
}

MMF_EMITTER(uffd_register, emit_uffd_register, mmf_predict_success, mmf_rt_uffd);

static MMF_CS_EXPR(emit_uffd_unregister)
{
	mmf_sb_puts(sb, "uffd_unregister(");
	mmf_cs_slot_range(sb, s);
	mmf_sb_puts(sb, ")");
}

MMF_EMITTER(uffd_unregister, emit_uffd_unregister, mmf_predict_success, mmf_rt_uffd);

/*
 * The filling calls work on the pages no pte maps yet, which the model does
 * not track: predict all of the range done. When it is not, the reproducer
 * stops checking from there (its guard), never reports.
 */
static MMF_CS_PREDICT(predict_fill)
{
	return n;
}

static MMF_CS_EXPR(emit_uffd_copy)
{
	mmf_sb_puts(sb, "uffd_copy(");
	mmf_cs_slot_range(sb, s);
	mmf_sb_printf(sb, ", 0x%x, ", (int)s->args[3]);
	mmf_cs_flag_arg(sb, s, 4);
	mmf_sb_puts(sb, ")");
}

MMF_EMITTER(uffd_copy, emit_uffd_copy, predict_fill, mmf_rt_uffd);

/* uffd_fill(request, slot, page, npages, mode) */
static void fill(struct strbuf *sb, const struct mmf_stmt *s, const char *req)
{
	mmf_sb_printf(sb, "uffd_fill(%s, ", req);
	mmf_cs_slot_range(sb, s);
	mmf_sb_puts(sb, ", ");
	mmf_cs_flag_arg(sb, s, 3);
	mmf_sb_puts(sb, ")");
}

static MMF_CS_EXPR(emit_uffd_zeropage)
{
	fill(sb, s, "UFFDIO_ZEROPAGE_");
}

MMF_EMITTER(uffd_zeropage, emit_uffd_zeropage, predict_fill, mmf_rt_uffd);

static MMF_CS_EXPR(emit_uffd_writeprotect)
{
	range_mode(sb, s, "uffd_writeprotect", 3);
}

MMF_EMITTER(uffd_writeprotect, emit_uffd_writeprotect, mmf_predict_success, mmf_rt_uffd);

static MMF_CS_EXPR(emit_uffd_continue)
{
	fill(sb, s, "UFFDIO_CONTINUE_");
}

MMF_EMITTER(uffd_continue, emit_uffd_continue, predict_fill, mmf_rt_uffd);

static MMF_CS_EXPR(emit_uffd_poison)
{
	fill(sb, s, "UFFDIO_POISON_");
}

MMF_EMITTER(uffd_poison, emit_uffd_poison, predict_fill, mmf_rt_uffd);

static MMF_CS_EXPR(emit_uffd_move)
{
	int dst, src, n;

	mmf_uffd_move_range(s, &dst, &src, &n);
	mmf_sb_printf(sb, "uffd_move(%d, %d, %d, ", dst, src, n);
	mmf_cs_flag_arg(sb, s, 5);
	mmf_sb_puts(sb, ")");
}

/* As the filling calls, on the range the move really takes. */
static MMF_CS_PREDICT(predict_uffd_move)
{
	int dst, src;

	mmf_uffd_move_range(s, &dst, &src, &n);
	return n;
}

MMF_EMITTER(uffd_move, emit_uffd_move, predict_uffd_move, mmf_rt_uffd);
