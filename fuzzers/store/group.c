// SPDX-License-Identifier: GPL-2.0
/*
 * One program, one bug: the reports a program makes together (a page
 * found corrupted, then the kernel's BUG when the process exits, or the
 * same corruption read after two calls) are one bug to triage, so the
 * later ones count to the first's bug (store.h, mmf_crash.related).
 */
#include <stdlib.h>

#include "store/store.h"

const char *mmf_store_group_related(const struct mmf_store_group *g, uint64_t prog,
				    uint64_t now_ms)
{
	if (!g->first || !prog || prog != g->prog || now_ms - g->at_ms > MMF_STORE_GROUP_MS)
		return NULL;
	return g->first;
}

void mmf_store_group_saved(struct mmf_store_group *g, const char *title,
			   const struct mmf_store_added *added, uint64_t prog, uint64_t now_ms)
{
	if (!added->related) {
		mmf_store_group_free(g);
		g->first = mmf_xstrdup(title);
		g->prog = prog;
	}
	g->at_ms = now_ms;
}

void mmf_store_group_free(struct mmf_store_group *g)
{
	free(g->first);
	g->first = NULL;
	g->prog = 0;
}
