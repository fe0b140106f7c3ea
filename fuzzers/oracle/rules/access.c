// SPDX-License-Identifier: GPL-2.0
/* Rules of the access family: the program's own stores, and the calls that look. */
#include "oracle/rules.h"

/* res: the pages written before a fault. */
void mmf_rule_write(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	for (int i = 0; i < res; i++) {
		struct mmf_vset w = mmf_vset_one(mmf_shadow_word(sh, s->args[3], idx + i));

		mmf_shadow_store(sh, idx + i, &w);
	}
}

/* The executor checks what it reads against the model. */
MMF_RULE_NEUTRAL(read)
/* Residency is not content. */
MMF_RULE_NEUTRAL(mincore)
/* Writing back keeps what the pages hold. */
MMF_RULE_NEUTRAL(msync)
