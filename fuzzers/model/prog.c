// SPDX-License-Identifier: GPL-2.0
/* Structural rules of a program: argument ranges and block nesting. */
#include <stdio.h>
#include <string.h>

#include "model/prog.h"
#include "util/util.h"

const struct mmf_call_desc *mmf_call_lookup(const char *name, size_t len)
{
	for (int i = 0; i < MMF_NR_CALLS; i++)
		if (strlen(mmf_calls[i].name) == len &&
		    !memcmp(mmf_calls[i].name, name, len))
			return &mmf_calls[i];
	return NULL;
}

/* Number of distinct values of a resource-like argument type. */
static uint64_t arg_span(const struct mmf_arg_desc *a)
{
	switch (a->type) {
	case MMF_ARG_MAP:
		return MMF_NR_MAPS;
	case MMF_ARG_FILE:
		return MMF_NR_FILES;
	case MMF_ARG_CHILD:
		return MMF_NR_CHILDREN;
	case MMF_ARG_SWAP:
		return MMF_NR_SWAPS;
	case MMF_ARG_BACKING:
		return 1 + MMF_NR_FILES;
	case MMF_ARG_TARGET:
		return 1 + MMF_NR_CHILDREN;
	case MMF_ARG_PAGE:
		return MMF_SLOT_PAGES;
	case MMF_ARG_ENUM:
		return a->set->nr;
	default:
		return 0;
	}
}

static uint64_t flags_mask(const struct mmf_flag_set *set)
{
	uint64_t m = 0;

	for (int i = 0; i < set->nr; i++)
		m |= set->flags[i].val;
	return m;
}

static bool enum_has(const struct mmf_flag_set *set, uint64_t v)
{
	for (int i = 0; i < set->nr; i++)
		if (set->flags[i].val == v)
			return true;
	return false;
}

/* Bring v into the range of argument a; identity on valid values. */
static uint64_t arg_clamp(const struct mmf_arg_desc *a, uint64_t v)
{
	switch (a->type) {
	case MMF_ARG_NPAGES:
		return v >= 1 && v <= MMF_SLOT_PAGES ? v : 1 + v % MMF_SLOT_PAGES;
	case MMF_ARG_TAG:
		return v <= MMF_MAX_TAG ? v : v % (MMF_MAX_TAG + 1);
	case MMF_ARG_FLAGS:
		return v & flags_mask(a->set);
	case MMF_ARG_ENUM:
		return enum_has(a->set, v) ? v : a->set->flags[v % a->set->nr].val;
	case MMF_ARG_INT: {
		int64_t s = (int64_t)v;

		if (s >= a->min && s <= a->max)
			return v;
		return a->min + v % (uint64_t)(a->max - a->min + 1);
	}
	default:
		return v < arg_span(a) ? v : v % arg_span(a);
	}
}

static bool arg_valid(const struct mmf_arg_desc *a, uint64_t v)
{
	return arg_clamp(a, v) == v;
}

static void emit(struct mmf_stmt *out, int *n, int id)
{
	memset(&out[*n], 0, sizeof(out[0]));
	out[(*n)++].id = id;
}

static bool is_opener(const struct mmf_stmt *s)
{
	return s->id >= 0 && (mmf_calls[s->id].block == MMF_BLOCK_FORK ||
			      mmf_calls[s->id].block == MMF_BLOCK_THREAD);
}

/* The first call at or after i, n when none. */
static int next_call(const struct mmf_stmt *st, int i, int n)
{
	while (i < n && st[i].id == MMF_COMMENT)
		i++;
	return i;
}

/* Drop each race that does not start a group (its block was dropped). */
static int drop_lone_races(struct mmf_stmt *st, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++) {
		int j = next_call(st, i + 1, n);

		if (st[i].id == MMF_RACE && (j == n || !is_opener(&st[j])))
			continue;
		st[k++] = st[i];
	}
	return k;
}

void mmf_prog_normalize(struct mmf_prog *p)
{
	struct mmf_stmt out[MMF_MAX_STMTS];
	bool in_block = false;
	int inflight = 0, n = 0;

	for (int i = 0; i < p->nr && i < MMF_MAX_STMTS; i++) {
		struct mmf_stmt s = p->stmts[i];
		const struct mmf_call_desc *d;
		/* Inside a block, keep one slot for its closing "}". */
		int room = MMF_MAX_STMTS - n - in_block;

		if (s.id == MMF_COMMENT) {
			if (s.comment < p->text_len && room >= 1)
				out[n++] = s;
			continue;
		}
		if (s.id < 0 || s.id >= MMF_NR_CALLS)
			s.id = (uint16_t)s.id % MMF_NR_CALLS;
		d = &mmf_calls[s.id];
		for (int a = 0; a < MMF_MAX_ARGS; a++)
			s.args[a] = a < d->nr_args ? arg_clamp(&d->args[a], s.args[a]) : 0;
		s.comment = 0;

		switch (d->block) {
		case MMF_BLOCK_FORK:
		case MMF_BLOCK_THREAD:
			if (in_block)
				continue;
			if (inflight == MMF_MAX_BLOCKS) {
				if (room < 3)
					continue;
				emit(out, &n, MMF_JOIN);
				inflight = 0;
				room--;
			}
			if (room < 2)
				continue;
			in_block = true;
			inflight++;
			break;
		case MMF_BLOCK_END:
			if (!in_block)
				continue;
			in_block = false;
			room++;
			break;
		case MMF_BLOCK_JOIN:
			if (in_block)
				continue;
			inflight = 0;
			break;
		case MMF_BLOCK_RACE:
			/* It starts a group: at most one per group. */
			if (in_block || inflight)
				continue;
			break;
		case MMF_BLOCK_NONE:
			break;
		}
		if (room < 1)
			continue;
		out[n++] = s;
	}
	if (in_block)
		emit(out, &n, MMF_END);
	n = drop_lone_races(out, n);
	memcpy(p->stmts, out, n * sizeof(out[0]));
	p->nr = n;
}

int mmf_prog_validate(const struct mmf_prog *p, char *err, size_t errlen)
{
	bool in_block = false;
	int inflight = 0;

	if (p->nr < 0 || p->nr > MMF_MAX_STMTS) {
		snprintf(err, errlen, "bad statement count %d", p->nr);
		return -1;
	}
	for (int i = 0; i < p->nr; i++) {
		const struct mmf_stmt *s = &p->stmts[i];
		const struct mmf_call_desc *d;

		if (s->id == MMF_COMMENT) {
			if (s->comment >= p->text_len) {
				snprintf(err, errlen, "statement %d: bad comment", i);
				return -1;
			}
			continue;
		}
		if (s->id < 0 || s->id >= MMF_NR_CALLS) {
			snprintf(err, errlen, "statement %d: bad call id %d", i, s->id);
			return -1;
		}
		d = &mmf_calls[s->id];
		for (int a = 0; a < d->nr_args; a++) {
			if (!arg_valid(&d->args[a], s->args[a])) {
				snprintf(err, errlen, "statement %d: %s: bad %s 0x%llx", i,
					 d->name, d->args[a].name,
					 (unsigned long long)s->args[a]);
				return -1;
			}
		}
		switch (d->block) {
		case MMF_BLOCK_FORK:
		case MMF_BLOCK_THREAD:
			if (in_block || inflight == MMF_MAX_BLOCKS) {
				snprintf(err, errlen, "statement %d: %s", i, in_block ?
					 "blocks do not nest" : "too many blocks before join");
				return -1;
			}
			in_block = true;
			inflight++;
			break;
		case MMF_BLOCK_END:
			if (!in_block) {
				snprintf(err, errlen, "statement %d: '}' without a block", i);
				return -1;
			}
			in_block = false;
			break;
		case MMF_BLOCK_JOIN:
			if (in_block) {
				snprintf(err, errlen, "statement %d: join inside a block", i);
				return -1;
			}
			inflight = 0;
			break;
		case MMF_BLOCK_RACE: {
			int j = next_call(p->stmts, i + 1, p->nr);

			if (in_block || inflight || j == p->nr || !is_opener(&p->stmts[j])) {
				snprintf(err, errlen, "statement %d: race must come right before "
					 "the first block of a group", i);
				return -1;
			}
			break;
		}
		case MMF_BLOCK_NONE:
			break;
		}
	}
	if (in_block) {
		snprintf(err, errlen, "block not closed with '}'");
		return -1;
	}
	return 0;
}

struct mmf_stmt *mmf_prog_append(struct mmf_prog *p, int id)
{
	struct mmf_stmt *s;

	if (p->nr >= MMF_MAX_STMTS)
		return NULL;
	s = &p->stmts[p->nr++];
	memset(s, 0, sizeof(*s));
	s->id = id;
	return s;
}

int mmf_prog_nr_calls(const struct mmf_prog *p)
{
	int n = 0;

	for (int i = 0; i < p->nr; i++)
		n += p->stmts[i].id != MMF_COMMENT;
	return n;
}

int mmf_prog_block_end(const struct mmf_prog *p, int bi)
{
	int i = bi + 1;

	while (i < p->nr && (p->stmts[i].id == MMF_COMMENT ||
			     mmf_calls[p->stmts[i].id].block != MMF_BLOCK_END))
		i++;
	return i;
}

int mmf_prog_next_join(const struct mmf_prog *p, int from)
{
	while (from < p->nr && p->stmts[from].id != MMF_JOIN)
		from++;
	return from;
}

bool mmf_prog_add_comment(struct mmf_prog *p, const char *text, size_t len)
{
	struct mmf_stmt *s;

	if (p->nr >= MMF_MAX_STMTS || p->text_len + len + 1 > sizeof(p->text))
		return false;
	s = mmf_prog_append(p, MMF_COMMENT);
	s->comment = p->text_len;
	memcpy(p->text + p->text_len, text, len);
	p->text_len += len;
	p->text[p->text_len++] = '\0';
	return true;
}

uint64_t mmf_prog_hash(const struct mmf_prog *p)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (int i = 0; i < p->nr; i++) {
		const struct mmf_stmt *s = &p->stmts[i];

		if (s->id == MMF_COMMENT)
			continue;
		h = (h ^ (uint16_t)s->id) * 0x100000001b3ull;
		for (int a = 0; a < MMF_MAX_ARGS; a++)
			h = (h ^ s->args[a]) * 0x100000001b3ull;
	}
	return h;
}

bool mmf_prog_race_group(const struct mmf_prog *p, int ri, struct mmf_race_group *g)
{
	if (ri < 0 || ri >= p->nr || p->stmts[ri].id != MMF_RACE)
		return false;
	g->first = next_call(p->stmts, ri + 1, p->nr);
	if (g->first == p->nr || !is_opener(&p->stmts[g->first]))
		return false;
	g->join = mmf_prog_next_join(p, g->first);
	g->nr_blocks = 0;
	for (int i = g->first; i < g->join; i++) {
		if (!is_opener(&p->stmts[i]))
			continue;
		g->last = i;
		g->nr_blocks++;
		i = mmf_prog_block_end(p, i);
	}
	return true;
}

int64_t mmf_prog_race_mark(const struct mmf_prog *p)
{
	int64_t delay = -1;

	for (int i = 0; i < p->nr; i++) {
		const char *t = p->text + p->stmts[i].comment, *at;
		long long d;

		if (p->stmts[i].id != MMF_COMMENT || strncmp(t, MMF_RACE_ROUND_MARK,
							    strlen(MMF_RACE_ROUND_MARK)))
			continue;
		at = strstr(t, "delay ");
		if (at && sscanf(at, "delay %lld", &d) == 1)
			delay = d;
	}
	return delay;
}
