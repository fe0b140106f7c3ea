// SPDX-License-Identifier: GPL-2.0
/*
 * Text form of programs: one statement per line, resources by name, flags
 * by their UAPI names, block bodies indented by a tab. Printing a parsed
 * printed program gives the same text back, byte for byte.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/prog.h"
#include "util/util.h"

static const char *const res_prefix[] = {
	[MMF_ARG_MAP] = "m", [MMF_ARG_FILE] = "f", [MMF_ARG_CHILD] = "c",
	[MMF_ARG_SWAP] = "s",
};

static void print_flags(const struct mmf_flag_set *set, uint64_t v, struct strbuf *sb)
{
	bool first = true;

	for (int i = 0; i < set->nr && v; i++) {
		if (!set->flags[i].val || (v & set->flags[i].val) != set->flags[i].val)
			continue;
		mmf_sb_printf(sb, "%s%s", first ? "" : "|", set->flags[i].name);
		v &= ~set->flags[i].val;
		first = false;
	}
	if (v)
		mmf_sb_printf(sb, "%s0x%llx", first ? "" : "|", (unsigned long long)v);
	else if (first)
		mmf_sb_puts(sb, set->flags[0].val ? "0" : set->flags[0].name);
}

static void print_arg(const struct mmf_arg_desc *a, uint64_t v, struct strbuf *sb)
{
	switch (a->type) {
	case MMF_ARG_MAP:
	case MMF_ARG_FILE:
	case MMF_ARG_CHILD:
	case MMF_ARG_SWAP:
		mmf_sb_printf(sb, "%s%llu", res_prefix[a->type], (unsigned long long)v);
		break;
	case MMF_ARG_BACKING:
		if (v == MMF_BACKING_ANON)
			mmf_sb_puts(sb, "anon");
		else
			mmf_sb_printf(sb, "f%llu", (unsigned long long)v - 1);
		break;
	case MMF_ARG_TARGET:
		if (v == MMF_TARGET_SELF)
			mmf_sb_puts(sb, "self");
		else
			mmf_sb_printf(sb, "c%llu", (unsigned long long)v - 1);
		break;
	case MMF_ARG_FLAGS:
		print_flags(a->set, v, sb);
		break;
	case MMF_ARG_ENUM:
		for (int i = 0; i < a->set->nr; i++) {
			if (a->set->flags[i].val == v) {
				mmf_sb_puts(sb, a->set->flags[i].name);
				return;
			}
		}
		mmf_sb_printf(sb, "0x%llx", (unsigned long long)v);
		break;
	case MMF_ARG_TAG:
		mmf_sb_printf(sb, "0x%02llx", (unsigned long long)v);
		break;
	case MMF_ARG_INT:
		mmf_sb_printf(sb, "%lld", (long long)v);
		break;
	case MMF_ARG_PAGE:
	case MMF_ARG_NPAGES:
		mmf_sb_printf(sb, "%llu", (unsigned long long)v);
		break;
	}
}

void mmf_stmt_print(const struct mmf_stmt *s, struct strbuf *sb)
{
	const struct mmf_call_desc *d = &mmf_calls[s->id];
	int first = 0;

	if (d->flags & MMF_CALL_DEFINES) {
		print_arg(&d->args[0], s->args[0], sb);
		mmf_sb_puts(sb, " = ");
		first = 1;
	}
	mmf_sb_puts(sb, d->name);
	if (d->block == MMF_BLOCK_FORK || d->block == MMF_BLOCK_THREAD) {
		mmf_sb_puts(sb, " {");
		return;
	}
	if (d->block != MMF_BLOCK_NONE && d->block != MMF_BLOCK_RACE)
		return;
	mmf_sb_puts(sb, "(");
	for (int i = first; i < d->nr_args; i++) {
		if (i > first)
			mmf_sb_puts(sb, ", ");
		print_arg(&d->args[i], s->args[i], sb);
	}
	mmf_sb_puts(sb, ")");
}

void mmf_stmt_title(const struct mmf_stmt *s, struct strbuf *sb)
{
	const struct mmf_call_desc *d = &mmf_calls[s->id];
	const struct mmf_arg_desc *a = &d->args[d->nr_args - 1];

	mmf_sb_puts(sb, d->name);
	if (!(d->flags & MMF_CALL_ADVICE))
		return;
	for (int i = 0; i < a->set->nr; i++)
		if (a->set->flags[i].val == s->args[d->nr_args - 1])
			mmf_sb_printf(sb, "(%s)", a->set->flags[i].name);
}

void mmf_prog_print(const struct mmf_prog *p, struct strbuf *sb)
{
	int depth = 0;

	for (int i = 0; i < p->nr; i++) {
		const struct mmf_stmt *s = &p->stmts[i];

		if (s->id != MMF_COMMENT && mmf_calls[s->id].block == MMF_BLOCK_END)
			depth = 0;
		if (depth)
			mmf_sb_puts(sb, "\t");
		if (s->id == MMF_COMMENT) {
			mmf_sb_printf(sb, "# %s\n", p->text + s->comment);
			continue;
		}
		mmf_stmt_print(s, sb);
		mmf_sb_puts(sb, "\n");
		if (mmf_calls[s->id].block == MMF_BLOCK_FORK ||
		    mmf_calls[s->id].block == MMF_BLOCK_THREAD)
			depth = 1;
	}
}

struct parser {
	const char *p;		/* cursor in the current line */
	const char *end;	/* end of the current line */
	int line;
	char *err;
	size_t errlen;
};

static int perr(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(ps->err, ps->errlen, "line %d: ", ps->line);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < ps->errlen)
		vsnprintf(ps->err + n, ps->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t'))
		ps->p++;
}

/* Next token: an identifier-like run, trimmed. */
static size_t token(struct parser *ps, const char **tok)
{
	const char *s;

	skip_ws(ps);
	s = ps->p;
	while (ps->p < ps->end && (isalnum((unsigned char)*ps->p) || *ps->p == '_' ||
				   *ps->p == '-' || *ps->p == '}' || *ps->p == '{'))
		ps->p++;
	*tok = s;
	return ps->p - s;
}

static bool accept(struct parser *ps, char c)
{
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == c) {
		ps->p++;
		return true;
	}
	return false;
}

static int parse_number(const char *t, size_t n, uint64_t *v)
{
	char buf[32], *end;

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, t, n);
	buf[n] = '\0';
	errno = 0;
	if (buf[0] == '-')
		*v = (uint64_t)strtoll(buf, &end, 0);
	else
		*v = strtoull(buf, &end, 0);
	return errno || *end ? -1 : 0;
}

static int parse_res(const char *t, size_t n, const char *prefix, uint64_t span, uint64_t *v)
{
	if (n < 2 || t[0] != prefix[0] || parse_number(t + 1, n - 1, v) || *v >= span)
		return -1;
	return 0;
}

/* "anon"/"self" is 0, resource N of the kind is N + 1. */
static int parse_word_or_res(const char *t, size_t n, const char *word, const char *prefix,
			     uint64_t span, uint64_t *v)
{
	if (n == strlen(word) && !memcmp(t, word, n)) {
		*v = 0;
		return 0;
	}
	if (parse_res(t, n, prefix, span, v))
		return -1;
	*v += 1;
	return 0;
}

static int lookup_flag(const struct mmf_flag_set *set, const char *t, size_t n, uint64_t *v)
{
	for (int i = 0; i < set->nr; i++) {
		if (strlen(set->flags[i].name) == n && !memcmp(set->flags[i].name, t, n)) {
			*v = set->flags[i].val;
			return 0;
		}
	}
	return parse_number(t, n, v);
}

/* A number stands for set values only: one for an enum, an OR for flags. */
static bool set_allows(const struct mmf_arg_desc *a, uint64_t v)
{
	uint64_t all = 0;

	for (int i = 0; i < a->set->nr; i++) {
		if (a->set->flags[i].val == v)
			return true;
		all |= a->set->flags[i].val;
	}
	return a->type == MMF_ARG_FLAGS && !(v & ~all);
}

static int parse_arg(struct parser *ps, const struct mmf_call_desc *d,
		     const struct mmf_arg_desc *a, uint64_t *v)
{
	const char *t;
	size_t n = token(ps, &t);
	uint64_t f;
	int bad = 0;

	switch (a->type) {
	case MMF_ARG_MAP:
		bad = parse_res(t, n, "m", MMF_NR_MAPS, v);
		break;
	case MMF_ARG_FILE:
		bad = parse_res(t, n, "f", MMF_NR_FILES, v);
		break;
	case MMF_ARG_CHILD:
		bad = parse_res(t, n, "c", MMF_NR_CHILDREN, v);
		break;
	case MMF_ARG_SWAP:
		bad = parse_res(t, n, "s", MMF_NR_SWAPS, v);
		break;
	case MMF_ARG_BACKING:
		bad = parse_word_or_res(t, n, "anon", "f", MMF_NR_FILES, v);
		break;
	case MMF_ARG_TARGET:
		bad = parse_word_or_res(t, n, "self", "c", MMF_NR_CHILDREN, v);
		break;
	case MMF_ARG_FLAGS:
		*v = 0;
		for (;;) {
			if (lookup_flag(a->set, t, n, &f)) {
				bad = 1;
				break;
			}
			*v |= f;
			if (!accept(ps, '|'))
				break;
			n = token(ps, &t);
		}
		bad = bad || !set_allows(a, *v);
		break;
	case MMF_ARG_ENUM:
		bad = lookup_flag(a->set, t, n, v) || !set_allows(a, *v);
		break;
	case MMF_ARG_TAG:
		bad = parse_number(t, n, v) || *v > MMF_MAX_TAG;
		break;
	case MMF_ARG_INT:
		bad = parse_number(t, n, v) || (int64_t)*v < a->min || (int64_t)*v > a->max;
		break;
	case MMF_ARG_PAGE:
		bad = parse_number(t, n, v) || *v >= MMF_SLOT_PAGES;
		break;
	case MMF_ARG_NPAGES:
		bad = parse_number(t, n, v) || *v < 1 || *v > MMF_SLOT_PAGES;
		break;
	}
	if (bad)
		return perr(ps, "%s: bad %s '%.*s'", d->name, a->name, (int)n, t);
	return 0;
}

static int parse_call(struct parser *ps, struct mmf_stmt *s)
{
	const struct mmf_call_desc *d;
	const char *t, *res = NULL;
	size_t n;
	int first = 0;

	n = token(ps, &t);
	if (accept(ps, '=')) {
		res = t;
		n = token(ps, &t);
	}
	d = mmf_call_lookup(t, n);
	if (!d)
		return perr(ps, "unknown call '%.*s'", (int)(n ? n : 1), t);
	s->id = d - mmf_calls;
	if (d->flags & MMF_CALL_DEFINES) {
		const char *save = ps->p;

		if (!res)
			return perr(ps, "%s: result must be named ('%s%s = ...')", d->name,
				    res_prefix[d->args[0].type], "N");
		ps->p = res;
		if (parse_arg(ps, d, &d->args[0], &s->args[0]))
			return -1;
		ps->p = save;
		first = 1;
	} else if (res) {
		return perr(ps, "%s defines no resource", d->name);
	}
	if (d->block == MMF_BLOCK_FORK || d->block == MMF_BLOCK_THREAD) {
		if (!accept(ps, '{'))
			return perr(ps, "%s: expected '{'", d->name);
	} else if (d->block == MMF_BLOCK_NONE || d->block == MMF_BLOCK_RACE) {
		if (!accept(ps, '('))
			return perr(ps, "%s: expected '('", d->name);
		for (int i = first; i < d->nr_args; i++) {
			if (i > first && !accept(ps, ','))
				return perr(ps, "%s: expected %d arguments", d->name,
					    d->nr_args - first);
			if (parse_arg(ps, d, &d->args[i], &s->args[i]))
				return -1;
		}
		if (!accept(ps, ')'))
			return perr(ps, "%s: expected ')' after %d arguments", d->name,
				    d->nr_args - first);
	}
	skip_ws(ps);
	if (ps->p != ps->end)
		return perr(ps, "trailing text '%.*s'", (int)(ps->end - ps->p), ps->p);
	return 0;
}

int mmf_prog_parse(const char *text, struct mmf_prog *p, char *err, size_t errlen)
{
	struct parser ps = { .err = err, .errlen = errlen };
	bool in_block = false, race = false;
	int inflight = 0;
	static const char lone_race[] = "race must come right before the first block of a group";

	memset(p, 0, sizeof(*p));
	for (const char *l = text; *l; ) {
		const char *nl = strchr(l, '\n');
		struct mmf_stmt *s;

		ps.p = l;
		ps.end = nl ? nl : l + strlen(l);
		l = nl ? nl + 1 : ps.end;
		ps.line++;
		/* CRLF, or worse: a comment keeping a '\r' would lose it when printed. */
		while (ps.end > ps.p && ps.end[-1] == '\r')
			ps.end--;
		skip_ws(&ps);
		if (ps.p == ps.end)
			continue;
		if (*ps.p == '#') {
			ps.p++;
			if (ps.p < ps.end && *ps.p == ' ')
				ps.p++;
			if (memchr(ps.p, '\0', ps.end - ps.p) ||
			    !mmf_prog_add_comment(p, ps.p, ps.end - ps.p))
				return perr(&ps, "program too long (comments)");
			continue;
		}
		s = mmf_prog_append(p, 0);
		if (!s)
			return perr(&ps, "program too long (more than %d statements)",
				    MMF_MAX_STMTS);
		if (parse_call(&ps, s))
			return -1;
		if (race && mmf_calls[s->id].block != MMF_BLOCK_FORK &&
		    mmf_calls[s->id].block != MMF_BLOCK_THREAD)
			return perr(&ps, "%s", lone_race);
		race = false;
		switch (mmf_calls[s->id].block) {
		case MMF_BLOCK_FORK:
		case MMF_BLOCK_THREAD:
			if (in_block)
				return perr(&ps, "blocks do not nest");
			if (inflight++ == MMF_MAX_BLOCKS)
				return perr(&ps, "more than %d blocks before a join",
					    MMF_MAX_BLOCKS);
			in_block = true;
			break;
		case MMF_BLOCK_END:
			if (!in_block)
				return perr(&ps, "'}' without a block");
			in_block = false;
			break;
		case MMF_BLOCK_JOIN:
			if (in_block)
				return perr(&ps, "join inside a block");
			inflight = 0;
			break;
		case MMF_BLOCK_RACE:
			if (in_block || inflight)
				return perr(&ps, "%s", lone_race);
			race = true;
			break;
		case MMF_BLOCK_NONE:
			break;
		}
	}
	if (race)
		return perr(&ps, "%s", lone_race);
	if (in_block)
		return perr(&ps, "block not closed with '}'");
	return 0;
}

int mmf_progs_parse(const char *log, struct mmf_prog *progs, int max, char *err, size_t errlen)
{
	static const char mark[] = "\n" MMF_PROG_EXEC_MARK;
	struct mmf_prog *cur = mmf_xmalloc(sizeof(*cur));
	char *text = mmf_xstrdup(log), *p = text, e[200];
	int n = 0, seen = 0;

	while (p && *p && max > 0) {
		char *next = strstr(p + 1, mark);

		if (next)
			*next++ = '\0';
		if (mmf_prog_parse(p, cur, e, sizeof(e))) {
			snprintf(err, errlen, "program %d: %s", seen, e);
			n = -1;
			break;
		}
		seen++;
		/* A ring of the last max: the oldest is overwritten. */
		if (mmf_prog_nr_calls(cur))
			progs[n++ % max] = *cur;
		p = next;
	}
	free(text);
	if (n > max) {
		/* Ring order back to run order: the oldest kept program first. */
		struct mmf_prog *tmp = mmf_xmalloc(max * sizeof(*tmp));

		for (int i = 0; i < max; i++)
			tmp[i] = progs[(n + i) % max];
		memcpy(progs, tmp, max * sizeof(*tmp));
		free(tmp);
		n = max;
	}
	free(cur);
	return n;
}
