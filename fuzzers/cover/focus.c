// SPDX-License-Identifier: GPL-2.0
/* The focus as address ranges: merging, lookup and the text form. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cover/focus.h"
#include "util/util.h"

void mmf_focus_add(struct mmf_focus *f, uint64_t lo, uint64_t hi)
{
	if (lo >= hi)
		return;
	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 64;
		f->v = mmf_xrealloc(f->v, f->cap * sizeof(*f->v));
	}
	f->v[f->n].lo = lo;
	f->v[f->n].hi = hi;
	f->n++;
}

static int cmp_range(const void *a, const void *b)
{
	const struct mmf_focus_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

void mmf_focus_merge(struct mmf_focus *f)
{
	size_t k = 0;

	if (!f->n)
		return;
	qsort(f->v, f->n, sizeof(*f->v), cmp_range);
	for (size_t i = 1; i < f->n; i++) {
		if (f->v[i].lo <= f->v[k].hi)
			f->v[k].hi = MAX(f->v[k].hi, f->v[i].hi);
		else
			f->v[++k] = f->v[i];
	}
	f->n = k + 1;
}

const struct mmf_focus_range *mmf_focus_find(const struct mmf_focus *f, uint64_t pc)
{
	/* the first range that ends after pc */
	size_t lo = mmf_count_le(f->v, f->n, sizeof(*f->v), offsetof(struct mmf_focus_range, hi), pc);

	return lo < f->n && f->v[lo].lo <= pc ? &f->v[lo] : NULL;
}

bool mmf_focus_has(const struct mmf_focus *f, uint64_t pc)
{
	return mmf_focus_find(f, pc) != NULL;
}

void mmf_focus_minus(const struct mmf_focus *a, const struct mmf_focus *b, struct mmf_focus *out)
{
	size_t j = 0;

	for (size_t i = 0; i < a->n; i++) {
		uint64_t lo = a->v[i].lo, hi = a->v[i].hi;

		while (j < b->n && b->v[j].hi <= lo)
			j++;
		for (size_t k = j; k < b->n && b->v[k].lo < hi; k++) {
			mmf_focus_add(out, lo, b->v[k].lo);
			lo = MAX(lo, b->v[k].hi);
		}
		mmf_focus_add(out, lo, hi);
	}
	mmf_focus_merge(out);
}

uint64_t mmf_focus_size(const struct mmf_focus *f)
{
	uint64_t n = 0;

	for (size_t i = 0; i < f->n; i++)
		n += f->v[i].hi - f->v[i].lo;
	return n;
}

char *mmf_focus_format(const struct mmf_focus *f)
{
	struct strbuf sb;

	mmf_sb_init(&sb);
	for (size_t i = 0; i < f->n; i++)
		mmf_sb_printf(&sb, "%llx-%llx\n", (unsigned long long)f->v[i].lo,
			      (unsigned long long)f->v[i].hi);
	return mmf_sb_detach(&sb);
}

static bool parse_range(const char *s, size_t l, uint64_t *lo, uint64_t *hi)
{
	const char *dash = memchr(s, '-', l);

	return dash && mmf_parse_hex_u64(s, dash - s, lo) &&
	       mmf_parse_hex_u64(dash + 1, l - (dash + 1 - s), hi) && *lo < *hi;
}

int mmf_focus_parse(const char *text, size_t len, struct mmf_focus *f, char *err, size_t n)
{
	size_t pos = 0, line = 0;

	while (pos < len) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - s) : len - pos;
		uint64_t lo, hi;

		pos += l + 1;
		line++;
		while (l && (s[l - 1] == '\r' || s[l - 1] == ' ' || s[l - 1] == '\t'))
			l--;
		if (!l || s[0] == '#')
			continue;
		if (!parse_range(s, l, &lo, &hi)) {
			snprintf(err, n, "line %zu: '%.*s' is not a range LO-HI of hex addresses",
				 line, (int)MIN(l, 80), s);
			mmf_focus_free(f);
			return -1;
		}
		mmf_focus_add(f, lo, hi);
	}
	mmf_focus_merge(f);
	return 0;
}

int mmf_focus_weights_parse(const char *text, struct mmf_focus_weights *w, char *err, size_t n)
{
	size_t line = 0;

	memset(w, 0, sizeof(*w));
	for (const char *s = text; *s; s += strcspn(s, "\n") + (s[strcspn(s, "\n")] == '\n')) {
		size_t l = strcspn(s, "\n"), d = strspn(s, "0123456789");
		unsigned long v = strtoul(s, NULL, 10);
		uint64_t lo, hi;
		int k;

		line++;
		if (!l || s[0] == '#')
			continue;
		if (!d || d > 3 || v < 2 || s[d] != ' ' || !parse_range(s + d + 1, l - d - 1, &lo, &hi)) {
			snprintf(err, n, "line %zu: '%.*s' is not 'WEIGHT LO-HI' (WEIGHT 2 to 999)",
				 line, (int)MIN(l, 80), s);
			mmf_focus_weights_free(w);
			return -1;
		}
		for (k = 0; k < w->n && w->weight[k] != v; k++)
			;
		if (k == MMF_FOCUS_WEIGHTS) {
			snprintf(err, n, "line %zu: more than %d weights", line, MMF_FOCUS_WEIGHTS);
			mmf_focus_weights_free(w);
			return -1;
		}
		w->n = MAX(w->n, k + 1);
		w->weight[k] = v;
		mmf_focus_add(&w->f[k], lo, hi);
	}
	for (int k = 0; k < w->n; k++)
		mmf_focus_merge(&w->f[k]);
	return 0;
}

unsigned int mmf_focus_weight(const struct mmf_focus_weights *w, uint64_t pc)
{
	unsigned int best = 1;

	for (int k = 0; k < w->n; k++)
		if (w->weight[k] > best && mmf_focus_has(&w->f[k], pc))
			best = w->weight[k];
	return best;
}

void mmf_focus_weights_free(struct mmf_focus_weights *w)
{
	for (int k = 0; k < MMF_FOCUS_WEIGHTS; k++)
		mmf_focus_free(&w->f[k]);
	memset(w, 0, sizeof(*w));
}

void mmf_focus_free(struct mmf_focus *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}
