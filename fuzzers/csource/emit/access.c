// SPDX-License-Identifier: GPL-2.0
/* The C reproducer's access calls: the program's own stores and loads. */
#include "csource/emit.h"

static MMF_CS_EXPR(emit_write)
{
	mmf_sb_puts(sb, "fill(");
	mmf_cs_slot_range(sb, s);
	mmf_sb_printf(sb, ", 0x%02x)", (int)s->args[3]);
}

/* Pages a write fills before the first one that faults. */
static MMF_CS_PREDICT(predict_write)
{
	for (int i = 0; i < n; i++) {
		const struct mmf_shadow_page *pg = &sh->pages[idx + i];

		if (mmf_cs_unmapped(pg) || mmf_cs_no_access(sh, pg) ||
		    (pg->prot != MMF_CS_PROT_UNKNOWN && !(pg->prot & MMF_PROT_WRITE)))
			return i;
	}
	return n;
}

MMF_EMITTER(write, emit_write, predict_write, mmf_rt_access, mmf_rt_fill);

static MMF_CS_EXPR(emit_read)
{
	mmf_sb_printf(sb, "verify(%d, ", si);
	mmf_cs_slot_range(sb, s);
	if (sim->info[si].nrows)
		mmf_sb_printf(sb, ", expect_%d, %d)", si, sim->info[si].nrows);
	else
		mmf_sb_puts(sb, ", NULL, 0)");
}

/* The one row that checks pages: its expression takes expect_N[]. */
const struct mmf_emitter mmf_emit_read = {
	.expr = emit_read, .predict = mmf_predict_success, .verifies = true,
	.runtime = { mmf_rt_access, mmf_rt_verify },
};

static MMF_CS_EXPR(emit_mincore)
{
	mmf_sb_puts(sb, "rt_mincore(");
	mmf_cs_at_len(sb, s);
	mmf_sb_puts(sb, ")");
}

MMF_EMITTER(mincore, emit_mincore, mmf_predict_success, mmf_rt_access);

static MMF_CS_EXPR(emit_msync)
{
	mmf_cs_range_call(sb, s, "msync", 3);
}

MMF_EMITTER(msync, emit_msync, mmf_predict_success);
