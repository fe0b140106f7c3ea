// SPDX-License-Identifier: GPL-2.0
/*
 * The pagemap flags oracle: after a write, the entries of the pages the
 * model says are this process's own copies (private, not a file view)
 * must carry the flags a correct kernel guarantees (oracle/pagemap.c).
 *
 * Exclusive-mapped is exact only with CONFIG_PAGE_MAPCOUNT; with
 * CONFIG_NO_PAGE_MAPCOUNT pagemap reports "maybe shared" folios as not
 * exclusive, so the check is off there, and in programs that may merge
 * pages (KSM). Soft-dirty is asserted once the kernel has shown it on any
 * page (kernels without CONFIG_MEM_SOFT_DIRTY never do).
 */
#include <stdio.h>
#include <string.h>

#include "exec/pmcheck.h"
#include "model/uapi.h"
#include "oracle/pagemap.h"

static bool no_page_mapcount;
static bool soft_dirty_seen;
static uint64_t zero_pfn;
static bool zero_pfn_known;

void mmf_pmcheck_init(void)
{
	FILE *f = popen("zcat /proc/config.gz 2>/dev/null | grep -c '^CONFIG_NO_PAGE_MAPCOUNT=y'",
			"r");
	int n = 0;

	if (!f)
		return;
	if (fscanf(f, "%d", &n) != 1)
		n = 0;
	pclose(f);
	no_page_mapcount = n > 0;
}

static bool name_has(const char *name, const char *const *words)
{
	for (; *words; words++)
		if (strstr(name, *words))
			return true;
	return false;
}

unsigned int mmf_pmcheck_policy(const struct mmf_prog *p)
{
	static const char *const merge[] = { "merge", "ksm", NULL };
	static const char *const uffd[] = { "uffd", "userfaultfd", NULL };
	unsigned int checks = MMF_PMCHK_NO_UFFD_WP;
	bool merges = false;

	for (int i = 0; i < p->nr; i++) {
		const struct mmf_stmt *s = &p->stmts[i];
		const struct mmf_call_desc *d;

		if (s->id < 0)
			continue;
		d = &mmf_calls[s->id];
		merges |= name_has(d->name, merge) ||
			  ((d->flags & MMF_CALL_ADVICE) &&
			   s->args[d->nr_args - 1] == MMF_MADV_MERGEABLE);
		if (name_has(d->name, uffd))
			checks &= ~MMF_PMCHK_NO_UFFD_WP;
	}
	if (!merges && !no_page_mapcount)
		checks |= MMF_PMCHK_EXCLUSIVE;
	return checks;
}

static void report(struct mmf_interp *in, int idx, int si, uint64_t ent, const char *what)
{
	const struct mmf_shadow_page *sp = &in->sh->pages[idx];
	struct strbuf sb;

	mmf_sb_init(&sb);
	mmf_sb_printf(&sb, "PAGEMAP: %s after write\n", what);
	mmf_sb_printf(&sb, "page: m%d+%d (arena page %d) at %p, written by statement %d\n",
		  idx / MMF_SLOT_PAGES, idx % MMF_SLOT_PAGES, idx, (void *)mmf_page_addr(in, idx), si);
	mmf_sb_printf(&sb, "pagemap: 0x%016llx present=%d swapped=%d exclusive=%d soft-dirty=%d"
		  " uffd-wp=%d\n", (unsigned long long)ent, !!(ent & MMF_PM_PRESENT),
		  !!(ent & MMF_PM_SWAP), !!(ent & MMF_PM_EXCLUSIVE), !!(ent & MMF_PM_SOFT_DIRTY),
		  !!(ent & MMF_PM_UFFD_WP));
	mmf_sb_puts(&sb, "calls that touched it, newest first:\n");
	for (int h = 0; h < MMF_HIST && mmf_page_hist(sp, h) >= 0; h++) {
		mmf_sb_printf(&sb, "  %d: ", mmf_page_hist(sp, h));
		mmf_stmt_print(&in->p->stmts[mmf_page_hist(sp, h)], &sb);
		mmf_sb_puts(&sb, "\n");
	}
	mmf_interp_report(in, sb.buf, sb.len);
	mmf_sb_free(&sb);
}

void mmf_pmcheck_written(struct mmf_interp *in, int fd, unsigned int checks, int si, long res)
{
	static __thread uint64_t ent[MMF_SLOT_PAGES];
	int idx, n;

	if (fd < 0 || res <= 0 || !mmf_stmt_range(&in->p->stmts[si], &idx, &n))
		return;
	if (!zero_pfn_known) {
		zero_pfn = mmf_pagemap_zero_pfn(fd, in->psz);
		zero_pfn_known = true;
	}
	n = mmf_pagemap_read(fd, mmf_page_addr(in, idx), in->psz, MIN((int)res, n), ent);
	for (int i = 0; i < n && !soft_dirty_seen; i++)
		soft_dirty_seen = ent[i] & MMF_PM_SOFT_DIRTY;
	if (soft_dirty_seen)
		checks |= MMF_PMCHK_SOFT_DIRTY;
	for (int i = 0; i < n; i++) {
		const struct mmf_shadow_page *pg = &in->sh->pages[idx + i];
		const char *what;

		/* Only this process's own copy: private anon or COWed file. */
		if (!pg->mapped || pg->lost || pg->view)
			continue;
		/* Zeros written, and a split remapped them to the zero page. */
		if (in->p->stmts[si].args[3] == 0 && mmf_pagemap_shared_zero(ent[i], zero_pfn))
			continue;
		what = mmf_pagemap_judge_written(ent[i], checks);
		if (what) {
			report(in, idx + i, si, ent[i], what);
			return;
		}
	}
}
