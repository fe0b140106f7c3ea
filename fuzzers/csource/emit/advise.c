// SPDX-License-Identifier: GPL-2.0
/* The C reproducer's advise calls. */
#include "csource/emit.h"
#include "oracle/rules.h"

static MMF_CS_EXPR(emit_madvise)
{
	mmf_cs_range_call(sb, s, "madvise", 3);
}

/* madvise() of advice on pages [idx, idx + n): 0 or -errno (the refusals
 * of oracle/rules/advise.c, then the holes).
 */
static long advise_result(const struct mmf_shadow *sh, const struct mmf_stmt *s, uint64_t advice,
			  int idx, int n)
{
	for (const struct mmf_advice_refusal *r = mmf_advice_refusals; r->refuses; r++) {
		if (r->advice != advice)
			continue;
		for (int i = 0; i < n; i++) {
			const struct mmf_shadow_page *pg = &sh->pages[idx + i];

			if (pg->mapped && r->refuses(pg))
				return -EINVAL;
		}
	}
	return mmf_predict_mapped(sh, s, idx, n);
}

static MMF_CS_PREDICT(predict_madvise)
{
	return advise_result(sh, s, s->args[3], idx, n);
}

MMF_EMITTER(madvise, emit_madvise, predict_madvise);

static MMF_CS_EXPR(emit_process_madvise)
{
	mmf_sb_printf(sb, "rt_process_madvise(pidfds, %d, &(struct iovec){ ", mmf_cs_target(s, 3));
	mmf_cs_at_len(sb, s);
	mmf_sb_puts(sb, " }, 1, ");
	mmf_cs_flag_arg(sb, s, 4);
	mmf_sb_puts(sb, ")");
}

MMF_EMITTER(process_madvise, emit_process_madvise, mmf_predict_success, mmf_rt_advise);

/* Both ranges on this process: the kernel gives bytes, the program pages. */
static MMF_CS_EXPR(emit_process_madvise_vec)
{
	int idx2, n2;

	mmf_stmt_second_range(s, &idx2, &n2);
	mmf_sb_puts(sb, "pages(rt_process_madvise(pidfds, -1, (struct iovec[]){ { ");
	mmf_cs_at_len(sb, s);
	mmf_sb_puts(sb, " }, { ");
	mmf_cs_at(sb, idx2);
	mmf_sb_printf(sb, ", len(%d) } }, 2, ", n2);
	mmf_cs_flag_arg(sb, s, 6);
	mmf_sb_puts(sb, "))");
}

/*
 * The pages of the ranges done in order, up to the first that fails (the
 * error when it is the first). This is 6.13's rule; before it the kernel
 * refuses destructive advice (EINVAL), and the reproducer stops checking.
 */
static MMF_CS_PREDICT(predict_process_madvise_vec)
{
	int idx2, n2;
	long r = advise_result(sh, s, s->args[6], idx, n);

	if (r < 0)
		return r;
	mmf_stmt_second_range(s, &idx2, &n2);
	return advise_result(sh, s, s->args[6], idx2, n2) < 0 ? n : n + n2;
}

MMF_EMITTER(process_madvise_vec, emit_process_madvise_vec, predict_process_madvise_vec,
	    mmf_rt_advise);
