// SPDX-License-Identifier: GPL-2.0
/*
 * The C reproducer's userfaultfd calls, on the process's uffd and handler
 * thread of runtime/uffd.h, the executor's.
 */
#include <stdio.h>

#include "csource/emit.h"

static MMF_CS_EXPR(emit_uffd_create)
{
	mmf_sb_printf(sb, "rt_uffd_new(&uffd, %d, ", (int)s->args[0]);
	mmf_cs_flag_arg(sb, s, 1);
	mmf_sb_puts(sb, ", psz)");
}

MMF_EMITTER(uffd_create, emit_uffd_create, mmf_predict_success, mmf_rt_uffd, mmf_rt_uffd_own);

/* fn(&uffd, [req, ]addr, len, mode argument 3, psz) */
static void range_mode(struct strbuf *sb, const struct mmf_stmt *s, const char *fn)
{
	mmf_sb_printf(sb, "%s", fn);
	mmf_cs_at_len(sb, s);
	mmf_sb_puts(sb, ", ");
	mmf_cs_flag_arg(sb, s, 3);
	mmf_sb_puts(sb, ", psz)");
}

static MMF_CS_EXPR(emit_uffd_register)
{
	range_mode(sb, s, "rt_uffd_register(&uffd, ");
}

MMF_EMITTER(uffd_register, emit_uffd_register, mmf_predict_success, mmf_rt_uffd, mmf_rt_uffd_own);

static MMF_CS_EXPR(emit_uffd_unregister)
{
	mmf_sb_puts(sb, "rt_uffd_unregister(&uffd, ");
	mmf_cs_at_len(sb, s);
	mmf_sb_puts(sb, ", psz)");
}

MMF_EMITTER(uffd_unregister, emit_uffd_unregister, mmf_predict_success, mmf_rt_uffd,
	    mmf_rt_uffd_own);

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
	int idx, n;

	mmf_cs_range(s, &idx, &n);
	mmf_sb_puts(sb, "rt_uffd_copy(&uffd, ");
	mmf_cs_at(sb, idx);
	mmf_sb_printf(sb, ", %d, ", n);
	mmf_cs_flag_arg(sb, s, 4);
	mmf_sb_printf(sb, ", psz, copy_word,\n\t\t\t &(struct copy_src){ %d, 0x%x })", idx,
		  (int)s->args[3]);
}

MMF_EMITTER(uffd_copy, emit_uffd_copy, predict_fill, mmf_rt_uffd, mmf_rt_uffd_own);

static void fill(struct strbuf *sb, const struct mmf_stmt *s, const char *req)
{
	char fn[64];

	snprintf(fn, sizeof(fn), "rt_uffd_fill(&uffd, %s, ", req);
	range_mode(sb, s, fn);
}

static MMF_CS_EXPR(emit_uffd_zeropage)
{
	fill(sb, s, "RT_UFFDIO_ZEROPAGE");
}

MMF_EMITTER(uffd_zeropage, emit_uffd_zeropage, predict_fill, mmf_rt_uffd, mmf_rt_uffd_own);

static MMF_CS_EXPR(emit_uffd_writeprotect)
{
	range_mode(sb, s, "rt_uffd_writeprotect(&uffd, ");
}

MMF_EMITTER(uffd_writeprotect, emit_uffd_writeprotect, mmf_predict_success, mmf_rt_uffd,
	    mmf_rt_uffd_own);

static MMF_CS_EXPR(emit_uffd_continue)
{
	fill(sb, s, "RT_UFFDIO_CONTINUE");
}

MMF_EMITTER(uffd_continue, emit_uffd_continue, predict_fill, mmf_rt_uffd, mmf_rt_uffd_own);

static MMF_CS_EXPR(emit_uffd_poison)
{
	fill(sb, s, "RT_UFFDIO_POISON");
}

MMF_EMITTER(uffd_poison, emit_uffd_poison, predict_fill, mmf_rt_uffd, mmf_rt_uffd_own);

static MMF_CS_EXPR(emit_uffd_move)
{
	int dst, src, n;

	mmf_uffd_move_range(s, &dst, &src, &n);
	mmf_sb_puts(sb, "rt_uffd_move(&uffd, ");
	mmf_cs_at(sb, dst);
	mmf_sb_puts(sb, ", ");
	mmf_cs_at(sb, src);
	mmf_sb_printf(sb, ", len(%d), ", n);
	mmf_cs_flag_arg(sb, s, 5);
	mmf_sb_puts(sb, ", psz)");
}

/* As the filling calls, on the range the move really takes. */
static MMF_CS_PREDICT(predict_uffd_move)
{
	int dst, src;

	mmf_uffd_move_range(s, &dst, &src, &n);
	return n;
}

MMF_EMITTER(uffd_move, emit_uffd_move, predict_uffd_move, mmf_rt_uffd, mmf_rt_uffd_own);
