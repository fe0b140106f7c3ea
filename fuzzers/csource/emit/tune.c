// SPDX-License-Identifier: GPL-2.0
/* The C reproducer's KSM and THP knob calls; knobs it writes are written
 * back when it ends (runtime/kept.c).
 */
#include "csource/emit.h"

static MMF_CS_EXPR(emit_prctl_merge)
{
	mmf_sb_printf(sb, "rt_prctl_merge(%d)", (int)s->args[0]);
}

MMF_EMITTER(prctl_merge, emit_prctl_merge, mmf_predict_success, mmf_rt_tune);

static MMF_CS_EXPR(emit_ksm_wait)
{
	mmf_sb_printf(sb, "rt_ksm_wait(%d)", (int)s->args[0]);
}

MMF_EMITTER(ksm_wait, emit_ksm_wait, mmf_predict_success, mmf_rt_tune);

static MMF_CS_EXPR(emit_thp_knob)
{
	struct strbuf value;

	mmf_sb_init(&value);
	mmf_cs_names_of(&value, mmf_calls[s->id].args[1].set, s->args[1], true);
	mmf_sb_printf(sb, "put_kept(\"/sys/kernel/mm/transparent_hugepage/%s\", \"%s\")",
		  mmf_knob_paths[s->args[0]], value.buf ? value.buf : "");
	mmf_sb_free(&value);
}

MMF_EMITTER(thp_knob, emit_thp_knob, mmf_predict_success, mmf_rt_kept);
