// SPDX-License-Identifier: GPL-2.0
/* The C reproducer's placement calls (runtime/place.h). */
#include "csource/emit.h"

static MMF_CS_EXPR(emit_mbind)
{
	mmf_sb_puts(sb, "rt_mbind(");
	mmf_cs_at_len(sb, s);
	mmf_sb_puts(sb, ", ");
	mmf_cs_flag_arg(sb, s, 3);
	mmf_sb_printf(sb, ", %d, ", (int)(int64_t)s->args[4]);
	mmf_cs_flag_arg(sb, s, 5);
	mmf_sb_puts(sb, ")");
}

MMF_EMITTER(mbind, emit_mbind, mmf_predict_success, mmf_rt_place);

static MMF_CS_EXPR(emit_move_pages)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	mmf_sb_printf(sb, "rt_move_pages(rt_target_pid(kids, %d), ", mmf_cs_target(s, 3));
	mmf_cs_at(sb, idx);
	mmf_sb_printf(sb, ", %d, psz, %d)", n, (int)(int64_t)s->args[4]);
}

MMF_EMITTER(move_pages, emit_move_pages, mmf_predict_success, mmf_rt_place);

static MMF_CS_EXPR(emit_migrate_pages)
{
	mmf_sb_printf(sb, "rt_migrate_pages(rt_target_pid(kids, %d), %d, %d)", mmf_cs_target(s, 0),
		  (int)s->args[1], (int)s->args[2]);
}

MMF_EMITTER(migrate_pages, emit_migrate_pages, mmf_predict_success, mmf_rt_place);

static MMF_CS_EXPR(emit_compact)
{
	mmf_sb_puts(sb, "rt_compact()");
}

MMF_EMITTER(compact, emit_compact, mmf_predict_success, mmf_rt_place);
