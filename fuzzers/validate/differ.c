// SPDX-License-Identifier: GPL-2.0
/*
 * The differential verdict: what a program does on the base and on the
 * patched kernel, run several times on each. A value (a call's result
 * class, its pages' states after it, a counter at the end) is the
 * kernel's only when every run of that kernel gave it; where both kernels
 * have one and they differ, the patch changed behaviour. Values that
 * differ between runs of the same kernel (reclaim, the stressors, timing)
 * are noise and never reported. Only the main line's calls: threads' and
 * racing parties' results depend on the schedule. Whether a page is part
 * of a large folio is not compared: it depends on the memory a boot has
 * free in large blocks, which no run of a boot changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cover/pagestate.h"
#include "validate/validate.h"

static const char *const counter_names[MMF_GUEST_COUNTERS] = {
	"RssAnon", "VmSwap", "VmLck", "RssShmem",
};

/* The main line's call of statement si in run c, NULL if it did not run. */
static const struct mmf_guest_call *call_of(const struct mmf_guest_cover *c, int si)
{
	for (int i = 0; i < c->nr_calls; i++)
		if (c->calls[i].si == si && c->calls[i].party == -1)
			return &c->calls[i];
	return NULL;
}

static void res_class(int64_t res, char *buf, size_t n)
{
	const char *name = res < 0 ? strerrorname_np(-res) : NULL;

	if (res >= 0)
		snprintf(buf, n, "ok");
	else if (name)
		snprintf(buf, n, "%s", name);
	else
		snprintf(buf, n, "error %lld", (long long)-res);
}

/* "12 present,exclusive; 4 swapped": how many pages in each state. */
static void states_text(const struct mmf_guest_call *k, char *buf, size_t n)
{
	bool done[MMF_SERVE_TRACE_PAGES] = { false };
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < k->nstates && len < n; i++) {
		uint8_t st = k->states[i] & ~MMF_PST_THP;
		char name[64];
		int same = 0;

		if (done[i])
			continue;
		for (int j = i; j < k->nstates; j++)
			if ((k->states[j] & ~MMF_PST_THP) == st) {
				done[j] = true;
				same++;
			}
		len += snprintf(buf + len, n - len, "%s%d %s", len ? "; " : "", same,
				mmf_page_state_name(st, name, sizeof(name)));
	}
}

/*
 * The value of one thing on one side: the text of the first run, if every
 * run has the same (1), else none (0). what: 0 the result class, 1 the
 * page states, 2 + k counter k.
 */
static int side_value(const struct mmf_guest_cover *runs, int nruns, int si, int what,
		      char *buf, size_t n)
{
	for (int r = 0; r < nruns; r++) {
		const struct mmf_guest_call *k = what < 2 ? call_of(&runs[r], si) : NULL;
		char v[MMF_VAL_DIFF_TEXT];

		if (what < 2 && (!k || (what == 1 && !k->nstates)))
			return 0;
		if (what >= 2 && !runs[r].has_counters)
			return 0;
		if (what == 0)
			res_class(k->res, v, sizeof(v));
		else if (what == 1)
			states_text(k, v, sizeof(v));
		else
			snprintf(v, sizeof(v), "%ld kB", runs[r].counters[what - 2]);
		if (!r)
			snprintf(buf, n, "%s", v);
		else if (strcmp(buf, v))
			return 0;
	}
	return nruns > 0;
}

static void add_item(struct mmf_val_behaviour *b, int si, const char *what, const char *base,
		     const char *patched)
{
	struct mmf_val_diff_item *it;

	if (b->nr_items == MMF_VAL_DIFF_ITEMS)
		return;
	it = &b->items[b->nr_items++];
	it->si = si;
	snprintf(it->what, sizeof(it->what), "%s", what);
	snprintf(it->base, sizeof(it->base), "%s", base);
	snprintf(it->patched, sizeof(it->patched), "%s", patched);
}

int mmf_val_differ(const struct mmf_prog *p, const struct mmf_guest_cover *const runs[MMF_NR_SIDES],
		   const int nruns[MMF_NR_SIDES], struct mmf_val_behaviour *b)
{
	static const char *const whats[] = { "result", "pages after it" };
	char v[MMF_NR_SIDES][MMF_VAL_DIFF_TEXT];

	b->nr_items = 0;
	b->first = -1;
	for (int si = 0; si < p->nr; si++) {
		for (int w = 0; w < 2; w++) {
			bool both = true;

			for (int s = 0; s < MMF_NR_SIDES; s++)
				both &= side_value(runs[s], nruns[s], si, w, v[s], sizeof(v[s]));
			if (!both || !strcmp(v[MMF_BASE], v[MMF_PATCHED]))
				continue;
			if (b->first < 0)
				b->first = si;
			add_item(b, si, whats[w], v[MMF_BASE], v[MMF_PATCHED]);
		}
	}
	for (int k = 0; k < MMF_GUEST_COUNTERS; k++) {
		bool both = true;

		for (int s = 0; s < MMF_NR_SIDES; s++)
			both &= side_value(runs[s], nruns[s], -1, 2 + k, v[s], sizeof(v[s]));
		if (both && strcmp(v[MMF_BASE], v[MMF_PATCHED]))
			add_item(b, -1, counter_names[k], v[MMF_BASE], v[MMF_PATCHED]);
	}
	return b->nr_items;
}
