// SPDX-License-Identifier: GPL-2.0
/*
 * Minimization: try one small edit at a time and keep it when the title
 * still comes back. Edits are a table, tried in order of how much they
 * remove: whole blocks and calls first, then blocks made sequential, then
 * a racing group's delays narrowed and its rounds fewer, then smaller
 * ranges and fewer flags.
 */
#include <string.h>

#include "repro/repro.h"
#include "util/util.h"

/* Apply variant k of an edit at statement si; false when there is none. */
typedef bool (*edit_fn)(struct mmf_prog *p, int si, int k);

static int block_end(const struct mmf_prog *p, int bi)
{
	int i = bi + 1;

	while (i < p->nr && (p->stmts[i].id < 0 || p->stmts[i].id != MMF_END))
		i++;
	return i;
}

static bool is_block(const struct mmf_stmt *s)
{
	return s->id == MMF_FORK || s->id == MMF_THREAD;
}

static void cut(struct mmf_prog *p, int from, int to)
{
	memmove(&p->stmts[from], &p->stmts[to], (p->nr - to) * sizeof(p->stmts[0]));
	p->nr -= to - from;
}

/* Drop a call, or a whole block with its body. */
static bool drop(struct mmf_prog *p, int si, int k)
{
	const struct mmf_stmt *s = &p->stmts[si];

	if (k || s->id < 0 || s->id == MMF_END)
		return false;
	cut(p, si, is_block(s) ? block_end(p, si) + 1 : si + 1);
	return true;
}

/* Run a block's body in line: no more child or thread. */
static bool unwrap(struct mmf_prog *p, int si, int k)
{
	int end;

	if (k || !is_block(&p->stmts[si]))
		return false;
	end = block_end(p, si);
	cut(p, end, end + 1);
	cut(p, si, si + 1);
	return true;
}

/* Argument k of statement si, when it is of one of the given types. */
static uint64_t *arg_of(struct mmf_prog *p, int si, int k, enum mmf_arg_type type)
{
	const struct mmf_stmt *s = &p->stmts[si];

	if (s->id < 0 || k >= mmf_calls[s->id].nr_args ||
	    mmf_calls[s->id].args[k].type != type)
		return NULL;
	return &p->stmts[si].args[k];
}

/*
 * A range of pages: one page first (most reproducers need no more, and
 * each kept step costs a guest restart), then half of it; k walks both
 * for each argument.
 */
static bool halve_npages(struct mmf_prog *p, int si, int k)
{
	uint64_t *v = arg_of(p, si, k / 2, MMF_ARG_NPAGES);

	if (!v || *v <= 1 || (k % 2 && *v / 2 == 1))
		return false;
	*v = k % 2 ? *v / 2 : 1;
	return true;
}

/* Clear one set flag: k walks argument and bit together. */
static bool clear_flag(struct mmf_prog *p, int si, int k)
{
	uint64_t *v = arg_of(p, si, k / 64, MMF_ARG_FLAGS);
	uint64_t bit = 1ull << (k % 64);

	if (!v || !(*v & bit))
		return false;
	*v &= ~bit;
	return true;
}

/* A race statement's delays: k 0 keeps the lower half of the sweep, 1 the upper. */
static bool narrow_delay(struct mmf_prog *p, int si, int k)
{
	uint64_t *a = p->stmts[si].args, mid = (a[2] + a[3]) / 2;

	if (k > 1 || p->stmts[si].id != MMF_RACE || a[2] == a[3])
		return false;
	if (k)
		a[2] = mid + (a[2] < a[3]);
	else
		a[3] = mid;
	return true;
}

/* Half the rounds of a race statement. */
static bool fewer_rounds(struct mmf_prog *p, int si, int k)
{
	uint64_t *rounds = &p->stmts[si].args[0];

	if (k || p->stmts[si].id != MMF_RACE || *rounds <= 1)
		return false;
	*rounds /= 2;
	return true;
}

static const struct {
	const char *name;
	edit_fn fn;
	int variants;		/* k runs over [0, variants) */
} edits[] = {
	{ "drop", drop, 1 },
	{ "unwrap", unwrap, 1 },
	{ "narrow", narrow_delay, 2 },
	{ "fewer", fewer_rounds, 1 },
	{ "halve", halve_npages, MMF_MAX_ARGS * 2 },
	{ "unflag", clear_flag, MMF_MAX_ARGS * 64 },
};

static void strip_comments(struct mmf_prog *p)
{
	int n = 0;

	for (int i = 0; i < p->nr; i++)
		if (p->stmts[i].id != MMF_COMMENT)
			p->stmts[n++] = p->stmts[i];
	p->nr = n;
	p->text_len = 0;
}

/* Steps left and time left. */
static bool may_step(const struct mmf_repro_ops *ops, int steps)
{
	return steps < ops->max_steps && !mmf_repro_expired(ops);
}

int mmf_repro_minimize(const struct mmf_repro_ops *ops, struct mmf_prog *p, const char *title,
		       int *steps)
{
	bool progress = true;

	*steps = 0;
	strip_comments(p);
	while (progress && may_step(ops, *steps)) {
		progress = false;
		for (size_t e = 0; e < ARRAY_SIZE(edits); e++) {
			/* From the end: later calls depend on earlier ones. */
			for (int si = p->nr - 1; si >= 0 && may_step(ops, *steps); si--) {
				for (int k = 0; k < edits[e].variants && si < p->nr; k++) {
					struct mmf_prog cand = *p;
					int runs, r;

					if (!edits[e].fn(&cand, si, k))
						continue;
					mmf_prog_normalize(&cand);
					if (mmf_prog_hash(&cand) == mmf_prog_hash(p))
						continue;
					(*steps)++;
					r = mmf_repro_hits(ops, &cand, 1, title, ops->min_attempts,
							   true, &runs);
					if (r < 0)
						return -1;
					if (!r)
						continue;
					if (ops->log)
						ops->log(ops->ctx, "%s at statement %d: %d calls left",
							 edits[e].name, si, mmf_prog_nr_calls(&cand));
					*p = cand;
					progress = true;
				}
			}
		}
	}
	return 0;
}
