/* SPDX-License-Identifier: GPL-2.0 */
/* The C reproducer's userfaultfd rows (csource_uffd.c), for csource.c. */
#ifndef MMF_CSOURCE_UFFD_H
#define MMF_CSOURCE_UFFD_H

#include "model/prog.h"
#include "util/util.h"

struct gen;
struct mmf_shadow;

extern const char mmf_rt_uffd[];

#define EMIT_UFFD(name)								\
	void mmf_emit_uffd_##name(struct strbuf *sb, const struct mmf_stmt *s, int si,	\
				  const struct gen *g)
EMIT_UFFD(create);
EMIT_UFFD(register);
EMIT_UFFD(unregister);
EMIT_UFFD(copy);
EMIT_UFFD(zeropage);
EMIT_UFFD(writeprotect);
EMIT_UFFD(continue);
EMIT_UFFD(poison);
EMIT_UFFD(move);
#undef EMIT_UFFD

long mmf_predict_uffd_fill(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n);

#endif
