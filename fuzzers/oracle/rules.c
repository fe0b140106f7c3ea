// SPDX-License-Identifier: GPL-2.0
/*
 * The shadow model's dispatch: the table of rules made from calls.def (a
 * call without its rule is a link error), and what runs after every rule.
 */
#include "oracle/rules.h"

const mmf_rule_fn mmf_rules[MMF_NR_CALLS] = {
#define MMF_CALL(id, fn, ...)							\
	[MMF_##id] = mmf_rule_##fn,
#define MMF_BLOCK(...)
#include "model/calls.def"
#undef MMF_CALL
#undef MMF_BLOCK
};

void mmf_shadow_apply(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int idx, n;

	/* Blocks and comments are structure: no rule, the pins still follow. */
	if (s->id >= 0 && mmf_rules[s->id])
		mmf_rules[s->id](sh, s, si, res);
	if (mmf_stmt_range(s, &idx, &n) && !(mmf_calls[s->id].flags & MMF_CALL_VERIFIES))
		mmf_shadow_touch_range(sh, idx, n, si);
	mmf_pins_follow(sh, s, res);
}
