/* SPDX-License-Identifier: GPL-2.0 */
/* Checks on programs shared by fuzz-text.c and fuzz-bytes.c. */
#ifndef MMF_FUZZ_PROG_CHECK_H
#define MMF_FUZZ_PROG_CHECK_H

#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "model/prog.h"
#include "util/util.h"

/* Same statements: calls, their arguments, comment texts (not padding). */
static inline void check_same_prog(const struct mmf_prog *a, const struct mmf_prog *b,
				   const char *what)
{
	FUZZ_CHECK(a->nr == b->nr, "%s: %d statements, then %d", what, a->nr, b->nr);
	for (int i = 0; i < a->nr; i++) {
		const struct mmf_stmt *x = &a->stmts[i], *y = &b->stmts[i];

		FUZZ_CHECK(x->id == y->id, "%s: statement %d: id %d, then %d", what, i,
			   x->id, y->id);
		if (x->id == MMF_COMMENT) {
			FUZZ_CHECK(!strcmp(a->text + x->comment, b->text + y->comment),
				   "%s: statement %d: comment '%s', then '%s'", what, i,
				   a->text + x->comment, b->text + y->comment);
			continue;
		}
		for (int k = 0; k < mmf_calls[x->id].nr_args; k++)
			FUZZ_CHECK(x->args[k] == y->args[k],
				   "%s: statement %d (%s): arg %d 0x%llx, then 0x%llx", what, i,
				   mmf_calls[x->id].name, k, (unsigned long long)x->args[k],
				   (unsigned long long)y->args[k]);
	}
}

static inline void check_valid(const struct mmf_prog *p, const char *what)
{
	char err[200];

	FUZZ_CHECK(!mmf_prog_validate(p, err, sizeof(err)), "%s: invalid: %s", what, err);
}

/*
 * The text form holds every valid program: printed, it parses back to the
 * same program, and printing that gives the same text (text.c's promise).
 */
static inline void check_text_round_trip(const struct mmf_prog *p, const char *what)
{
	static struct mmf_prog q;
	struct strbuf sb, sb2;
	char err[200];

	mmf_sb_init(&sb);
	mmf_sb_init(&sb2);
	mmf_prog_print(p, &sb);
	mmf_sb_puts(&sb, "");
	FUZZ_CHECK(!mmf_prog_parse(sb.buf, &q, err, sizeof(err)),
		   "%s: printed program does not parse: %s\n%s", what, err, sb.buf);
	check_same_prog(p, &q, what);
	mmf_prog_print(&q, &sb2);
	mmf_sb_puts(&sb2, "");
	FUZZ_CHECK(!strcmp(sb.buf, sb2.buf), "%s: printed twice differs:\n%s---\n%s", what,
		   sb.buf, sb2.buf);
	mmf_sb_free(&sb);
	mmf_sb_free(&sb2);
}

#endif
