// SPDX-License-Identifier: GPL-2.0
/* The results oracle: see results.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "model/uapi.h"
#include "oracle/results.h"
#include "oracle/rules.h"

/* What the model knows of a range: every page known, and which kinds. */
struct range_facts {
	bool known;
	bool all_mapped;
	bool any_unmapped;
};

static struct range_facts facts(const struct mmf_shadow *sh, int idx, int n)
{
	struct range_facts f = { .known = true, .all_mapped = true };

	for (int i = 0; i < n; i++) {
		const struct mmf_shadow_page *pg = &sh->pages[idx + i];

		if (pg->lost || (pg->mapped && pg->lock_unknown))
			f.known = false;
		f.all_mapped &= pg->mapped;
		f.any_unmapped |= !pg->mapped;
	}
	return f;
}

int mmf_results_errno(const struct mmf_shadow *sh, const struct mmf_stmt *s,
			    const char **why)
{
	struct range_facts f;
	int idx, n;

	if (!mmf_stmt_range(s, &idx, &n) || n <= 0)
		return 0;
	f = facts(sh, idx, n);
	if (!f.known)
		return 0;
	*why = f.all_mapped ? mmf_advise_refusal(sh, s, idx, n) : NULL;
	if (*why)
		return EINVAL;
	for (const struct mmf_misuse *r = mmf_lock_misuses; r->why; r++) {
		if (r->call == s->id && f.any_unmapped) {
			*why = r->why;
			return r->err;
		}
	}
	return 0;
}

long mmf_results_vmlck_kb(void)
{
	char *st = mmf_read_file("/proc/self/status", NULL);
	char *p = st ? strstr(st, "\nVmLck:") : NULL;
	long kb = p ? strtol(p + 7, NULL, 10) : -1;

	free(st);
	return kb;
}

int mmf_results_check_locked(const struct mmf_shadow *sh, const struct mmf_stmt *s,
			  const struct mmf_arena *arena, long vmlck_base_kb, struct strbuf *out)
{
	unsigned char vec[MMF_SLOT_PAGES];
	long psz = arena->psz;
	bool populate = mmf_lock_populates(s);
	long want, got, locked;
	int idx, n;

	if (populate && mmf_stmt_range(s, &idx, &n) && n > 0 && (size_t)n <= sizeof(vec) &&
	    !mincore(mmf_arena_page(arena, idx), (long)n * psz, vec)) {
		for (int i = 0; i < n; i++) {
			const struct mmf_shadow_page *pg = &sh->pages[idx + i];
			struct mmf_vset vs;

			/* Only pages the model can vouch for: known, readable,
			 * no guard, backed by a page inside its file.
			 */
			if (!pg->mapped || pg->lost || pg->guard || pg->prot == 0xff ||
			    !(pg->prot & (MMF_PROT_READ | MMF_PROT_WRITE)) || (pg->view && !mmf_shadow_expect(sh, idx + i, &vs)))
				continue;
			if (vec[i] & 1)
				continue;
			mmf_sb_printf(out, "ACCOUNTING: mlocked page not resident\n"
				  "page %d of the range (arena page %d) not resident after %s"
				  " returned 0 (mincore)\n", i, idx + i, mmf_calls[s->id].name);
			return 1;
		}
	}
	locked = mmf_shadow_locked_pages(sh);
	if (!sh->locks_exact || vmlck_base_kb < 0 || locked < 0)
		return 0;
	want = vmlck_base_kb + locked * (psz / 1024);
	got = mmf_results_vmlck_kb();
	if (got < 0 || got == want)
		return 0;
	mmf_sb_printf(out, "ACCOUNTING: VmLck differs from mlocked pages\n"
		  "VmLck is %ld kB after %s, the model locked %ld pages: expected %ld kB\n",
		  got, mmf_calls[s->id].name, locked, want);
	return 1;
}
