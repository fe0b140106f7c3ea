/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The C reproducer's emitters: one row per call of model/calls.def,
 * mmf_emit_FN, defined in emit/FAMILY.c. A row prints the C expression
 * whose value is the call's result, predicts that result for the
 * simulation, and names the runtime pieces (runtime.h) its expression uses.
 * Block statements (fork, thread, "}", join) are the assembler's
 * (csource.c).
 */
#ifndef MMF_CSOURCE_EMIT_H
#define MMF_CSOURCE_EMIT_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "csource/runtime.h"
#include "csource/sim.h"
#include "model/arena.h"
#include "model/prog.h"
#include "model/uapi.h"
#include "oracle/shadow.h"
#include "util/util.h"

/* The most runtime pieces a call's row names. */
#define MMF_CS_PIECES	3

struct mmf_emitter {
	/* The expression of s, statement si. */
	void (*expr)(struct strbuf *sb, const struct mmf_stmt *s, int si,
		     const struct mmf_cs_sim *sim);
	/* The result a kernel without the bug returns, as far as the model
	 * tells, for s on pages [idx, idx + n). Asked only when the
	 * accounting oracle expects no errno.
	 */
	long (*predict)(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n);
	/* The expression checks the pages against the read's expect_N[]. */
	bool verifies;
	/* In the order they go into the file; a piece needs those before it. */
	const char *runtime[MMF_CS_PIECES];
};

/* A call's row: MMF_EMITTER(fn, expr, predict[, runtime pieces]). */
#define MMF_EMITTER(fn, expr_fn, predict_fn, ...)				\
	const struct mmf_emitter mmf_emit_##fn = {				\
		.expr = expr_fn, .predict = predict_fn, .runtime = { __VA_ARGS__ } }

#define MMF_CALL(id, fn, ...)	extern const struct mmf_emitter mmf_emit_##fn;
#define MMF_BLOCK(...)
#include "model/calls.def"
#undef MMF_CALL
#undef MMF_BLOCK

/* Indexed by call id; NULL for the blocks. */
extern const struct mmf_emitter *const mmf_emitters[MMF_NR_CALLS];

/* Arena pages [*idx, *idx + *n) of s; 0, 0 for a call without a range. */
void mmf_cs_range(const struct mmf_stmt *s, int *idx, int *n);

/* Printing. */
#define MMF_CS_EXPR(name)							\
	void name(struct strbuf *sb, const struct mmf_stmt *s, int si,		\
		  const struct mmf_cs_sim *sim)
/* The UAPI names of v in set: the one name of an enum value, or each flag. */
void mmf_cs_names_of(struct strbuf *names, const struct mmf_flag_set *set, uint64_t v,
		     bool is_enum);
/* v as a number (hex or decimal) with names in a comment, if any. */
void mmf_cs_value(struct strbuf *sb, uint64_t v, bool hex, const struct strbuf *names);
/* Argument arg of s, a flag set or an enum, with its names. */
void mmf_cs_flag_arg(struct strbuf *sb, const struct mmf_stmt *s, int arg);
/* "at(slot, page)" of arena page idx. */
void mmf_cs_at(struct strbuf *sb, int idx);
/* "at(slot, page), len(npages)": the range of s. */
void mmf_cs_at_len(struct strbuf *sb, const struct mmf_stmt *s);
/* "slot, page, npages": the range of s. */
void mmf_cs_slot_range(struct strbuf *sb, const struct mmf_stmt *s);
/* "sys(syscall(SYS_name, range[, flag argument arg]))"; arg < 0: none. */
void mmf_cs_range_call(struct strbuf *sb, const struct mmf_stmt *s, const char *name, int arg);
/* A target argument as the runtime takes it: -1 this process, else child c. */
int mmf_cs_target(const struct mmf_stmt *s, int arg);

/* Predicting. A page the model lost keeps the fields it had, a good guess:
 * most pages are lost because a block may touch them, not because it did.
 */
#define MMF_CS_PREDICT(name)							\
	long name(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n)
/* The prediction of a call that succeeds, 0, whatever the model holds. */
MMF_CS_PREDICT(mmf_predict_success);
/* -ENOMEM when a page of the range is not mapped (mprotect, madvise). */
MMF_CS_PREDICT(mmf_predict_mapped);
bool mmf_cs_unmapped(const struct mmf_shadow_page *pg);
/* Any access faults: PROT_NONE, a guard, past the end of its file. */
bool mmf_cs_no_access(const struct mmf_shadow *sh, const struct mmf_shadow_page *pg);
/* The model's prot of a page a failed mprotect may have changed. */
#define MMF_CS_PROT_UNKNOWN	0xff

#endif
