// SPDX-License-Identifier: GPL-2.0
/* The C reproducer's advise calls. */
#include "csource/emit.h"

static MMF_CS_EXPR(emit_madvise)
{
	mmf_cs_range_call(sb, s, "madvise", 3);
}

static bool refuses_locked(const struct mmf_shadow_page *pg)
{
	return pg->locked;
}

static bool refuses_free(const struct mmf_shadow_page *pg)
{
	return pg->locked || mmf_page_obj(pg) >= 0;
}

static bool refuses_remove(const struct mmf_shadow_page *pg)
{
	return pg->locked || mmf_page_obj(pg) < 0 || pg->priv;
}

static bool refuses_wipe(const struct mmf_shadow_page *pg)
{
	return mmf_page_obj(pg) >= 0;
}

/* Advice a VMA can refuse: madvise() stops there with EINVAL (mm/madvise.c). */
static const struct {
	uint64_t advice;
	bool (*refuses)(const struct mmf_shadow_page *pg);
} advice_rules[] = {
	{ MMF_MADV_DONTNEED, refuses_locked },		/* can_madv_lru_vma() */
	{ MMF_MADV_COLD, refuses_locked },
	{ MMF_MADV_PAGEOUT, refuses_locked },
	{ MMF_MADV_FREE, refuses_free },		/* anonymous private only */
	{ MMF_MADV_REMOVE, refuses_remove },		/* shared file-backed, unlocked */
	{ MMF_MADV_WIPEONFORK, refuses_wipe },		/* anonymous private only */
	{ MMF_MADV_GUARD_INSTALL, refuses_locked },
};

static MMF_CS_PREDICT(predict_madvise)
{
	for (size_t r = 0; r < ARRAY_SIZE(advice_rules); r++) {
		if (advice_rules[r].advice != s->args[3])
			continue;
		for (int i = 0; i < n; i++) {
			const struct mmf_shadow_page *pg = &sh->pages[idx + i];

			if (pg->mapped && advice_rules[r].refuses(pg))
				return -EINVAL;
		}
	}
	return mmf_predict_mapped(sh, s, idx, n);
}

MMF_EMITTER(madvise, emit_madvise, predict_madvise);

static MMF_CS_EXPR(emit_process_madvise)
{
	if (s->args[3] == MMF_TARGET_SELF)
		mmf_sb_puts(sb, "pmadvise(-1 /* self */, ");
	else
		mmf_sb_printf(sb, "pmadvise(%d /* c%d */, ", (int)s->args[3] - 1, (int)s->args[3] - 1);
	mmf_cs_at_len(sb, s);
	mmf_sb_puts(sb, ", ");
	mmf_cs_flag_arg(sb, s, 4);
	mmf_sb_puts(sb, ")");
}

MMF_EMITTER(process_madvise, emit_process_madvise, mmf_predict_success, mmf_rt_pmadvise);
