// SPDX-License-Identifier: GPL-2.0
/* The C reproducer's swap calls: on the paths given on its command line. */
#include "csource/emit.h"

static MMF_CS_EXPR(emit_swapoff)
{
	int n = s->args[0];

	mmf_sb_printf(sb, "swaps[%d] ? sys(syscall(SYS_swapoff, swaps[%d])) : -ENODEV", n, n);
}

MMF_EMITTER(swapoff, emit_swapoff, mmf_predict_success);

static MMF_CS_EXPR(emit_swapon)
{
	int64_t prio = (int64_t)s->args[1];
	uint64_t v = s->args[2];
	struct strbuf names;
	int n = s->args[0];

	mmf_sb_init(&names);
	mmf_cs_names_of(&names, mmf_calls[s->id].args[2].set, v, false);
	/* As the executor: a priority of 0..100 is preferred, -1 the default. */
	if (prio >= 0) {
		v |= MMF_SWAP_FLAG_PREFER | (prio & MMF_SWAP_FLAG_PRIO_MASK);
		mmf_sb_printf(&names, "%sSWAP_FLAG_PREFER|%lld", names.len ? "|" : "", (long long)prio);
	}
	mmf_sb_printf(sb, "swaps[%d] ? sys(syscall(SYS_swapon, swaps[%d], ", n, n);
	mmf_cs_value(sb, v, true, &names);
	mmf_sb_puts(sb, ")) : -ENODEV");
	mmf_sb_free(&names);
}

MMF_EMITTER(swapon, emit_swapon, mmf_predict_success);
