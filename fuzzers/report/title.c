// SPDX-License-Identifier: GPL-2.0
/*
 * Title of one report: try the formats of its kind on the report text and
 * fill the winning format's template with its captures and guilty frames.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

struct strv {
	char **v;
	int n;
};

static void strv_push(struct strv *sv, char *s)
{
	sv->v = mmf_xrealloc(sv->v, (sv->n + 1) * sizeof(*sv->v));
	sv->v[sv->n++] = s;
}

static void strv_free(struct strv *sv)
{
	for (int i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = 0;
}

static char *copy_range(const char *text, size_t from, size_t to)
{
	char *s = mmf_xmalloc(to - from + 1);

	memcpy(s, text + from, to - from);
	s[to - from] = '\0';
	return s;
}

static void push_captures(struct strv *args, const char *text, const struct rx_match *m)
{
	for (int i = 0; i < m->ncap; i++)
		strv_push(args, m->cso[i] < 0 ? mmf_xstrdup("") :
			  copy_range(text, m->cso[i], m->ceo[i]));
}

/* "%1".."%9" are args[0..8]. */
static char *expand(const char *fmt, char *const *args, int nargs)
{
	struct strbuf sb;

	mmf_sb_init(&sb);
	for (const char *p = fmt; *p; p++) {
		if (p[0] == '%' && p[1] >= '1' && p[1] <= '9') {
			int i = *++p - '1';

			mmf_sb_puts(&sb, i < nargs ? args[i] : "?");
			continue;
		}
		mmf_sb_add(&sb, p, 1);
	}
	return mmf_sb_detach(&sb);
}

/*
 * The first match of report[0], then each further step on a later line
 * than the previous one: where that fails for the first occurrence of
 * report[0], it fails for any later one too.
 */
static bool match_steps(const struct oops_fmt *f, const char *text, size_t len,
			size_t *start, struct strv *args)
{
	struct rx_match m;
	size_t pos;

	if (!mmf_rx_find(f->report[0], text, 0, len, &m))
		return false;
	*start = m.so;
	push_captures(args, text, &m);
	pos = line_end(text, m.eo, len);
	for (int k = 1; f->report[k]; k++) {
		if (pos >= len || !mmf_rx_find(f->report[k], text, pos + 1, len, &m)) {
			strv_free(args);
			return false;
		}
		push_captures(args, text, &m);
		pos = line_end(text, m.eo, len);
	}
	return true;
}

static bool strv_has(const struct strv *sv, const char *s)
{
	for (int i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], s))
			return true;
	return false;
}

static void push_unique(struct strv *sv, char *s)
{
	if (strv_has(sv, s))
		free(s);
	else
		strv_push(sv, s);
}

/*
 * A C++ function's mangled name (Itanium, as clang prints a C++ kernel
 * module's frames: _Z8fakeNameiii) by its plain name: "fakeName".
 */
static char *plain_name(const char *s)
{
	char *end;
	unsigned long n;

	if (strncmp(s, "_Z", 2) || !isdigit((unsigned char)s[2]))
		return NULL;
	n = strtoul(s + 2, &end, 10);
	if (!n || strlen(end) < n)
		return NULL;
	return mmf_xasprintf("%.*s", (int)n, end);
}

/* Title args: the captures, then one frame per STACK part. */
static char *with_frames(const char *fmt, const struct strv *caps, char **frames, size_t nf)
{
	char **args = mmf_xcalloc(caps->n + nf, sizeof(*args));
	char **plain = mmf_xcalloc(caps->n + nf, sizeof(*plain));
	char *s;

	for (int i = 0; i < caps->n; i++)
		args[i] = caps->v[i];
	for (size_t i = 0; i < nf; i++)
		args[caps->n + i] = frames[i];
	for (size_t i = 0; i < caps->n + nf; i++) {
		plain[i] = plain_name(args[i]);
		if (plain[i])
			args[i] = plain[i];
	}
	s = expand(fmt, args, caps->n + nf);
	for (size_t i = 0; i < caps->n + nf; i++)
		free(plain[i]);
	free(plain);
	free(args);
	return s;
}

/*
 * Alternative titles help merge duplicates: the format's alt templates,
 * and the title with the frames as printed and with each syscall wrapper
 * prefix stripped (one arch's __x64_sys_foo is another's sys_foo).
 */
static void add_alts(const struct oops_fmt *f, const char *title, const struct strv *caps,
		     const struct frame_list *fl, struct strv *alts)
{
	char **frames = mmf_xcalloc(fl->n + 1, sizeof(*frames));

	for (int i = 0; i < FMT_MAXALT && f->alt[i]; i++) {
		char *s = with_frames(f->alt[i], caps, fl->canon, fl->n);

		if (strcmp(s, title))
			push_unique(alts, s);
		else
			free(s);
	}
	for (int p = -1; p < 0 || mmf_syscall_prefixes[p]; p++) {
		bool changed = p < 0;
		char *s;

		for (size_t i = 0; i < fl->n; i++) {
			char *raw = fl->raw[i];
			size_t n = p < 0 ? 0 : strlen(mmf_syscall_prefixes[p]);

			if (n && !strncmp(raw, mmf_syscall_prefixes[p], n)) {
				raw += n;
				changed = true;
			}
			frames[i] = raw;
		}
		if (!changed)
			continue;
		s = with_frames(f->fmt, caps, frames, fl->n);
		if (strcmp(s, title))
			push_unique(alts, s);
		else
			free(s);
		for (int i = 0; i < FMT_MAXALT && f->alt[i]; i++)
			push_unique(alts, with_frames(f->alt[i], caps, frames, fl->n));
	}
	free(frames);
}

/*
 * Where each format's title first matches, and the earliest of these. The
 * title is nearly always on the report's first line, so look there before
 * searching the whole text; formats after a match need only look up to it.
 */
static size_t find_titles(const struct oops *oops, const char *text, size_t len, size_t *pos)
{
	size_t best = len + 1;

	for (size_t limit = line_end(text, 0, len);; limit = len) {
		for (size_t i = 0; oops->fmts[i].title; i++) {
			struct rx_match m;

			pos[i] = len + 1;
			if (!mmf_rx_find(oops->fmts[i].title, text, 0, limit, &m))
				continue;
			pos[i] = m.so;
			if (m.so < best) {
				best = m.so;
				limit = line_end(text, m.so, len);
			}
		}
		if (best <= len || limit == len)
			return best;
	}
}

/*
 * The first format, in table order, whose title matches earliest and whose
 * report lines are there, gives the title.
 */
void mmf_extract_title(const struct oops *oops, const char *text, size_t len,
		   struct title_result *res)
{
	struct strv alts = { 0 };
	size_t nfmts = 0, best, *pos;
	const char *hdr;

	memset(res, 0, sizeof(*res));
	while (oops->fmts[nfmts].title)
		nfmts++;
	pos = mmf_xcalloc(nfmts, sizeof(*pos));
	best = find_titles(oops, text, len, pos);
	for (size_t i = 0; i < nfmts && !res->title; i++) {
		const struct oops_fmt *f = &oops->fmts[i];
		struct strv caps = { 0 };
		struct frame_list fl = { 0 };
		struct rx_match m;
		size_t start;

		if (pos[i] != best || best > len)
			continue;
		if (f->report[0]) {
			if (!match_steps(f, text, len, &start, &caps))
				continue;
		} else {
			/* it matches at best: a title may span a line (a task name's newline) */
			mmf_rx_find(f->title, text, best, len, &m);
			start = m.so;
			push_captures(&caps, text, &m);
		}
		if (f->stack) {
			mmf_extract_frames(f->stack, text, start, len, &fl);
			res->corrupted = !fl.ok;
		}
		if (f->stack && !fl.ok && (f->flags & OOPS_ALT_IF_NO_STACK)) {
			res->title = with_frames(f->alt[0], &caps, fl.canon, fl.n);
		} else {
			res->title = with_frames(f->fmt, &caps, fl.canon, fl.n);
			add_alts(f, res->title, &caps, &fl, &alts);
		}
		res->fmt = f;
		mmf_frame_list_free(&fl);
		strv_free(&caps);
	}
	if (!res->title) {
		/* No format fits: the header line is the best we have. */
		res->corrupted = best <= len;
		hdr = memmem(text, len, oops->header, strlen(oops->header));
		if (!hdr)
			hdr = text;
		res->title = copy_range(text, hdr - text, line_end(text, hdr - text, len));
	}
	if (res->fmt && (res->fmt->flags & OOPS_CORRUPTED))
		res->corrupted = true;
	res->alt = alts.v;
	res->nr_alt = alts.n;
	free(pos);
}

#define IDENT_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:"

/* What follows the last " in ", e.g. "foo" or "<rust::Type>::method". */
char *mmf_title_frame(const char *title)
{
	for (const char *p = title + strlen(title); p-- > title;) {
		const char *name = p + 4, *q = name;
		size_t n;

		if (strncmp(p, " in ", 4))
			continue;
		n = *q == '<' ? strspn(q + 1, IDENT_CHARS " ") : 0;
		if (n && q[n + 1] == '>')
			q += n + 2;
		n = strspn(q, IDENT_CHARS);
		if (n)
			return copy_range(title, name - title, q + n - title);
	}
	return NULL;
}
