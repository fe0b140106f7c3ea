/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shadow model's rules: mmf_rule_FN for each call of model/calls.def,
 * defined in rules/FAMILY.c, and what else of a family's calls the oracle
 * asks for. A rule applies statement s (index si) that returned res to the
 * model; the core (shadow_int.h) then touches its range and lets the pins
 * follow (rules.c). A call that leaves page contents alone says so with
 * MMF_RULE_NEUTRAL(fn) in its family's file, and why.
 */
#ifndef MMF_RULES_H
#define MMF_RULES_H

#include "oracle/shadow_int.h"

typedef void (*mmf_rule_fn)(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res);

#define MMF_CALL(id, fn, ...)							\
	void mmf_rule_##fn(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res);
#define MMF_BLOCK(...)
#include "model/calls.def"
#undef MMF_CALL
#undef MMF_BLOCK

/* Indexed by call id; blocks have none (NULL). */
extern const mmf_rule_fn mmf_rules[MMF_NR_CALLS];

/* The rule of a call that leaves every page's content and mapping alone. */
#define MMF_RULE_NEUTRAL(fn)							\
void mmf_rule_##fn(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res) \
{									\
}

/*
 * A defined misuse: the call must fail with err when the model knows some
 * page of its range unmapped (results.c checks them). The list ends with a
 * row without why.
 */
struct mmf_misuse {
	int call;
	int err;
	const char *why;
};

extern const struct mmf_misuse mmf_lock_misuses[];

/*
 * The advise family's refusals (mm/madvise.c): advice that a VMA whose
 * page refuses() refuses with EINVAL, madvise() stopping there. The C
 * reproducer predicts with every row; the results oracle holds the kernel
 * to a row with a why (the man page's words) when the model knows the
 * whole range mapped. The table ends with a row without refuses.
 */
struct mmf_advice_refusal {
	uint64_t advice;
	bool (*refuses)(const struct mmf_shadow_page *pg);
	const char *why;
};

extern const struct mmf_advice_refusal mmf_advice_refusals[];
/* The words of a refusal the kernel is held to, if s is a madvise whose
 * pages [idx, idx + n) make one; else NULL.
 */
const char *mmf_advise_refusal(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx,
			       int n);

/* lock: whether s populates its range as it locks it (mlock, mlock2
 * without MLOCK_ONFAULT).
 */
bool mmf_lock_populates(const struct mmf_stmt *s);

/* pin: what s races on: slots, files and pins (pipe bits, MMF_PINS_RING). */
void mmf_pin_note(const struct mmf_stmt *s, uint8_t *slots, uint8_t *files, uint8_t *uses);
/* pin: in the child of the fork block at bi, what the group's
 * process_vm_writev into it wrote behind its back is lost.
 */
void mmf_pin_child_of(struct mmf_shadow *sh, const struct mmf_prog *p, int first, int bi);

#endif
