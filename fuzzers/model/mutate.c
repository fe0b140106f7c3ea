// SPDX-License-Identifier: GPL-2.0
/*
 * Program mutation, in the manner of syzkaller's: a few small edits of the
 * call list or of one argument. New calls come from the generator, so they
 * carry its biases. An edit may break the block structure; normalizing after
 * each one repairs it, so every result is valid and every edit starts from a
 * valid program.
 */
#include <string.h>

#include "model/prog.h"
#include "util/rand.h"
#include "util/util.h"

/*
 * Edits that add statements stop at GROW_MAX, as syzkaller's mutator stops
 * inserting at its 30 calls: generation makes 4 to 27 calls, and lineages
 * whose edits only add run ever longer, slower programs as a run goes on
 * (the AFL++ engine, which stacks edits, most). Shorter programs do not
 * lose races: a fork or thread block still fits.
 */
#define GROW_MAX	40

/* Page deltas: neighbours, then folio-sized steps. */
static const uint16_t page_deltas[] = { 1, 1, 1, 2, 3, 4, 8, 16, 512 };

static bool is_call(const struct mmf_stmt *s)
{
	return s->id != MMF_COMMENT;
}

static bool is_plain(const struct mmf_stmt *s)
{
	return is_call(s) && mmf_calls[s->id].block == MMF_BLOCK_NONE;
}

/* A statement that may stand anywhere outside a block: a plain call or a join. */
static bool is_movable(const struct mmf_stmt *s)
{
	return is_plain(s) || (is_call(s) && mmf_calls[s->id].block == MMF_BLOCK_JOIN);
}

static bool is_range(const struct mmf_stmt *s)
{
	return is_call(s) && mmf_calls[s->id].flags & MMF_CALL_RANGE;
}

static bool has_args(const struct mmf_stmt *s)
{
	return is_call(s) && mmf_calls[s->id].nr_args > 0;
}

static bool is_opener(const struct mmf_stmt *s)
{
	return is_call(s) && (mmf_calls[s->id].block == MMF_BLOCK_FORK ||
			      mmf_calls[s->id].block == MMF_BLOCK_THREAD);
}

static bool is_delim(const struct mmf_stmt *s)
{
	return is_opener(s) || (is_call(s) && mmf_calls[s->id].block == MMF_BLOCK_END);
}

/* A statement that can name an edit: a call, not the "}" of a block. */
static bool is_named(const struct mmf_stmt *s)
{
	return is_call(s) && mmf_calls[s->id].block != MMF_BLOCK_END;
}

static const struct mmf_stmt no_stmt = { .id = MMF_COMMENT };

/* Index of a random statement of p that satisfies pred, or -1. */
static int pick(struct mmf_rand *r, const struct mmf_prog *p,
		bool (*pred)(const struct mmf_stmt *s))
{
	int n = 0, k;

	for (int i = 0; i < p->nr; i++)
		n += pred(&p->stmts[i]);
	if (!n)
		return -1;
	k = mmf_rand_below(r, n);
	for (int i = 0;; i++)
		if (pred(&p->stmts[i]) && !k--)
			return i;
}

static void insert_stmt(struct mmf_prog *p, int i, const struct mmf_stmt *s)
{
	memmove(&p->stmts[i + 1], &p->stmts[i], (p->nr - i) * sizeof(*s));
	p->stmts[i] = *s;
	p->nr++;
}

static void remove_stmt(struct mmf_prog *p, int i)
{
	p->nr--;
	memmove(&p->stmts[i], &p->stmts[i + 1], (p->nr - i) * sizeof(p->stmts[0]));
}

/*
 * What generation puts at statement i, from its model of the calls before
 * it (mmf_prog_generate_at), into p in place of the n statements there.
 * Returns the index in p of the statement that names the edit (the block
 * it made, else its last call), or -1 when nothing was generated.
 */
static int gen_at(struct mmf_rand *r, struct mmf_prog *p, int i, int n)
{
	struct mmf_stmt run[MMF_MAX_STMTS];
	int k = mmf_prog_generate_at(r, p, i, run, MAX(GROW_MAX - p->nr, 0) + n), w = -1;

	if (!k)
		return -1;
	memmove(&p->stmts[i + k], &p->stmts[i + n], (p->nr - i - n) * sizeof(run[0]));
	memcpy(&p->stmts[i], run, k * sizeof(run[0]));
	p->nr += k - n;
	for (int j = 0; j < k; j++)
		if (is_opener(&run[j]) || (is_named(&run[j]) && !(w >= 0 && is_opener(&run[w]))))
			w = j;
	return w < 0 ? -1 : i + w;
}

/* The other delimiter of the block that statement i opens or closes. */
static int partner(const struct mmf_prog *p, int i)
{
	int dir = is_opener(&p->stmts[i]) ? 1 : -1;

	do
		i += dir;
	while (!is_delim(&p->stmts[i]));
	return i;
}

static bool in_block(const struct mmf_prog *p, int i)
{
	bool in = false;

	for (int k = 0; k < i; k++)
		if (is_delim(&p->stmts[k]))
			in = is_opener(&p->stmts[k]);
	return in;
}

static uint64_t mutate_arg(struct mmf_rand *r, const struct mmf_call_desc *d, int i, uint64_t v)
{
	const struct mmf_arg_desc *a = &d->args[i];
	uint64_t delta, nv;
	int f;

	switch (a->type) {
	case MMF_ARG_FLAGS:
		do
			f = mmf_rand_below(r, a->set->nr);
		while (!a->set->flags[f].val);
		return v ^ a->set->flags[f].val;
	case MMF_ARG_PAGE:
	case MMF_ARG_NPAGES:
		/* Out-of-range results wrap around in mmf_prog_normalize(). */
		if (mmf_rand_below(r, 2)) {
			delta = page_deltas[mmf_rand_below(r, ARRAY_SIZE(page_deltas))];
			return mmf_rand_below(r, 2) ? v + delta : v - delta;
		}
		break;
	default:
		break;
	}
	/* A biased fresh value; retry a little so that it differs. */
	for (int tries = 0; tries < 8; tries++) {
		nv = mmf_arg_generate(r, d, i);
		if (nv != v)
			break;
	}
	return nv;
}

static bool op_change_arg(struct mmf_rand *r, struct mmf_prog *p, const struct mmf_prog *other,
			  struct mmf_stmt *what)
{
	int i = pick(r, p, has_args), a;
	struct mmf_stmt *s;

	if (i < 0)
		return false;
	s = &p->stmts[i];
	a = mmf_rand_below(r, mmf_calls[s->id].nr_args);
	s->args[a] = mutate_arg(r, &mmf_calls[s->id], a, s->args[a]);
	*what = *s;
	return true;
}

static bool op_insert(struct mmf_rand *r, struct mmf_prog *p, const struct mmf_prog *other,
		      struct mmf_stmt *what)
{
	int w;

	if (p->nr >= GROW_MAX)
		return false;
	w = gen_at(r, p, mmf_rand_below(r, p->nr + 1), 0);
	if (w < 0)
		return false;
	*what = p->stmts[w];
	return true;
}

void mmf_prog_remove(struct mmf_prog *p, int i)
{
	int j;

	if (is_delim(&p->stmts[i])) {
		j = partner(p, i);
		remove_stmt(p, MAX(i, j));
		i = MIN(i, j);
	}
	remove_stmt(p, i);
}

static bool op_remove(struct mmf_rand *r, struct mmf_prog *p, const struct mmf_prog *other,
		      struct mmf_stmt *what)
{
	int i = pick(r, p, is_call);

	if (i < 0)
		return false;
	/* A block is named by its opener: "}" says nothing. */
	*what = p->stmts[is_delim(&p->stmts[i]) ? MIN(i, partner(p, i)) : i];
	mmf_prog_remove(p, i);
	return true;
}

/* Replace a call by a generated one, often keeping the pages it works on. */
static bool op_replace(struct mmf_rand *r, struct mmf_prog *p, const struct mmf_prog *other,
		       struct mmf_stmt *what)
{
	int i = pick(r, p, is_plain), w;
	struct mmf_stmt old;

	if (i < 0)
		return false;
	old = p->stmts[i];
	w = gen_at(r, p, i, 1);
	if (w < 0)
		return false;
	if (is_range(&p->stmts[w]) && is_range(&old) && mmf_rand_below(r, 2))
		memcpy(p->stmts[w].args, old.args, 3 * sizeof(old.args[0]));
	*what = p->stmts[w];
	return true;
}

/* Repeat a call, next to itself or later. */
static bool op_duplicate(struct mmf_rand *r, struct mmf_prog *p, const struct mmf_prog *other,
			 struct mmf_stmt *what)
{
	int i = pick(r, p, is_movable);
	struct mmf_stmt s;

	if (i < 0 || p->nr >= GROW_MAX)
		return false;
	s = p->stmts[i];
	insert_stmt(p, i + 1 + (mmf_rand_below(r, 2) ? mmf_rand_below(r, p->nr - i) : 0), &s);
	*what = s;
	return true;
}

static bool op_swap(struct mmf_rand *r, struct mmf_prog *p, const struct mmf_prog *other,
		    struct mmf_stmt *what)
{
	struct mmf_stmt s;
	int i;

	if (p->nr < 2)
		return false;
	i = mmf_rand_below(r, p->nr - 1);
	s = p->stmts[i];
	p->stmts[i] = p->stmts[i + 1];
	p->stmts[i + 1] = s;
	*what = is_named(&s) ? s : is_named(&p->stmts[i]) ? p->stmts[i] : no_stmt;
	return true;
}

/*
 * Put a run of other's calls at a random place of p: either in the middle
 * of p, or replacing p's tail (crossover). other's comments are left out:
 * their text is in other's pool.
 */
static bool op_splice(struct mmf_rand *r, struct mmf_prog *p, const struct mmf_prog *other,
		      struct mmf_stmt *what)
{
	struct mmf_stmt run[MMF_MAX_STMTS];
	int i, n = 0, len, tail;

	if (!other || !mmf_prog_nr_calls(other))
		return false;
	i = mmf_rand_below(r, p->nr + 1);
	len = mmf_rand_below(r, 2) ? MMF_MAX_STMTS : 1 + (int)mmf_rand_below(r, 8);
	for (int k = mmf_rand_below(r, other->nr); k < other->nr && n < len; k++)
		if (is_call(&other->stmts[k]))
			run[n++] = other->stmts[k];
	tail = len == MMF_MAX_STMTS ? i : p->nr;
	n = MAX(MIN(n, GROW_MAX - tail), 0);
	memmove(&p->stmts[i + n], &p->stmts[i], (tail - i) * sizeof(run[0]));
	memcpy(&p->stmts[i], run, n * sizeof(run[0]));
	p->nr = tail + n;
	*what = no_stmt;
	for (int k = n - 1; k >= 0; k--)
		if (is_named(&run[k]))
			*what = run[k];
	return true;
}

/* Make a run of top-level calls a fork or thread block, racing what follows. */
static bool op_wrap(struct mmf_rand *r, struct mmf_prog *p, const struct mmf_prog *other,
		    struct mmf_stmt *what)
{
	struct mmf_stmt open = { .id = mmf_rand_below(r, 2) ? MMF_FORK : MMF_THREAD };
	struct mmf_stmt end = { .id = MMF_END };
	int i = pick(r, p, is_plain), n = 0, len = 1 + mmf_rand_below(r, 6);

	if (i < 0 || p->nr + 2 > GROW_MAX || in_block(p, i))
		return false;
	while (n < len && i + n < p->nr && is_plain(&p->stmts[i + n]))
		n++;
	if (open.id == MMF_FORK)
		open.args[0] = mmf_arg_generate(r, &mmf_calls[MMF_FORK], 0);
	insert_stmt(p, i + n, &end);
	insert_stmt(p, i, &open);
	*what = open;
	return true;
}

static const struct mutator {
	const char *name;
	int weight;
	/* On success, what is the statement the edit added, removed or changed. */
	bool (*fn)(struct mmf_rand *r, struct mmf_prog *p, const struct mmf_prog *other,
		   struct mmf_stmt *what);
} mutators[] = {
	{ "arg", 30, op_change_arg },
	{ "insert", 15, op_insert },
	{ "remove", 10, op_remove },
	{ "replace", 10, op_replace },
	{ "duplicate", 5, op_duplicate },
	{ "swap", 5, op_swap },
	{ "splice", 5, op_splice },
	{ "wrap", 5, op_wrap },
};

static const struct mutator *pick_mutator(struct mmf_rand *r)
{
	int total = 0, x;

	for (size_t i = 0; i < ARRAY_SIZE(mutators); i++)
		total += mutators[i].weight;
	x = mmf_rand_below(r, total);
	for (size_t i = 0;; i++) {
		x -= mutators[i].weight;
		if (x < 0)
			return &mutators[i];
	}
}

void mmf_prog_mutate_named(struct mmf_rand *r, struct mmf_prog *p, const struct mmf_prog *other,
			   struct mmf_mutation *last)
{
	const struct mutator *m;
	struct mmf_stmt what;
	int done = 0;

	/* The edits rely on a valid block structure. */
	mmf_prog_normalize(p);
	/* One edit, sometimes a few; insert, remove or swap always applies. */
	while (!done || (done < 4 && mmf_rand_oneof(r, 3))) {
		m = pick_mutator(r);
		if (m->fn(r, p, other, &what)) {
			mmf_prog_normalize(p);
			done++;
			last->op = m->name;
			last->stmt = what;
		}
	}
}

void mmf_prog_mutate(struct mmf_rand *r, struct mmf_prog *p, const struct mmf_prog *other)
{
	struct mmf_mutation last;

	mmf_prog_mutate_named(r, p, other, &last);
}
