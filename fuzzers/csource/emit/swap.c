// SPDX-License-Identifier: GPL-2.0
/* The C reproducer's swap calls: on the paths given on its command line. */
#include "csource/emit.h"

static MMF_CS_EXPR(emit_swapoff)
{
	mmf_sb_printf(sb, "rt_swapoff(swaps[%d])", (int)s->args[0]);
}

MMF_EMITTER(swapoff, emit_swapoff, mmf_predict_success, mmf_rt_swap);

static MMF_CS_EXPR(emit_swapon)
{
	mmf_sb_printf(sb, "rt_swapon(swaps[%d], %lld, ", (int)s->args[0], (long long)(int64_t)s->args[1]);
	mmf_cs_flag_arg(sb, s, 2);
	mmf_sb_puts(sb, ")");
}

MMF_EMITTER(swapon, emit_swapon, mmf_predict_success, mmf_rt_swap);
