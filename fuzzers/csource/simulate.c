// SPDX-License-Identifier: GPL-2.0
/*
 * The simulation behind a C reproducer's expectations. Which results the
 * model depends on is found by feeding it others and comparing; the
 * reproducer checks those results, and the first call that returns
 * something else turns checking off in its process. A prediction that is
 * wrong can thus hide a bug, never make one up.
 *
 * Threads are simulated as if each ran its whole block when it starts: the
 * race rules leave whatever depends on the interleaving unknown, and one
 * more rule covers what they do not: a file a thread re-creates is unknown
 * to all when its group also forks, as which file the child gets depends
 * on when fork() runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csource/emit.h"
#include "csource/sim.h"
#include "oracle/results.h"
#include "oracle/shadow.h"

/* Any nonce: the tables hold tags and page shifts, the run picks its own. */
#define SIM_NONCE	1

/* A run of pages of a read that expect the same. */
struct row {
	int page, npages, nvals;
	int tag[MMF_VSET_MAX], shift[MMF_VSET_MAX];
	int hist[MMF_HIST];
	char what[96];
};

/* A copy of the model, its objects' pages included. */
static struct mmf_shadow *clone(const struct mmf_shadow *sh)
{
	struct mmf_shadow *c = mmf_xmalloc(sizeof(*c));

	memcpy(c, sh, sizeof(*c));
	for (int o = 0; o < MMF_SHADOW_OBJS; o++) {
		size_t size = sh->objs[o].npages * sizeof(*sh->objs[o].pages);

		if (!sh->objs[o].pages)
			continue;
		c->objs[o].pages = mmf_xmalloc(size ? size : 1);
		memcpy(c->objs[o].pages, sh->objs[o].pages, size);
	}
	return c;
}

/* The model's state after s returned res, on a copy. */
static struct mmf_shadow *after(const struct mmf_shadow *sh, const struct mmf_stmt *s, int si,
				long res)
{
	struct mmf_shadow *c = clone(sh);

	mmf_shadow_apply(c, s, si, res);
	return c;
}

/*
 * How the model depends on the result of s: feed it other results (valid
 * ones: counts up to n pages, errnos) and compare with the prediction's,
 * in meaning: the bytes of the models differ where the meaning does not.
 */
static enum mmf_cs_guard guard_of(const struct mmf_shadow *sh, const struct mmf_stmt *s, int si,
				  long want)
{
	long probes[] = { 0, 1, 1, -EINVAL, -ENOMEM, -EFAULT, -EEXIST, -EBADF };
	struct mmf_shadow *ref = after(sh, s, si, want);
	enum mmf_cs_guard g = MMF_CS_GUARD_NONE;
	int idx, n;

	mmf_cs_range(s, &idx, &n);
	probes[2] = MAX(n, 1);

	for (size_t i = 0; i < ARRAY_SIZE(probes) && g != MMF_CS_GUARD_EXACT; i++) {
		struct mmf_shadow *alt;

		if (probes[i] == want)
			continue;
		alt = after(sh, s, si, probes[i]);
		if (!mmf_shadow_same(ref, alt))
			g = MAX(g, (probes[i] < 0) == (want < 0) ? MMF_CS_GUARD_EXACT :
								   MMF_CS_GUARD_SIGN);
		mmf_shadow_delete(alt);
	}
	mmf_shadow_delete(ref);
	return g;
}

/* What page idx must hold; false when the model cannot tell. */
static bool row_of(const struct mmf_shadow *sh, int idx, struct row *r)
{
	const struct mmf_shadow_page *pg = &sh->pages[idx];
	struct mmf_vset vs;

	if (!mmf_shadow_expect(sh, idx, &vs))
		return false;
	memset(r, 0, sizeof(*r));
	r->page = idx;
	r->npages = 1;
	r->nvals = vs.n;
	for (int i = 0; i < vs.n; i++) {
		uint64_t v = vs.v[i];

		if (!v)
			continue;
		/* Only zero and pattern words: anything else is not checked. */
		if ((v >> 32 & 0xffffff) != sh->nonce || !(v >> 56))
			return false;
		r->tag[i] = v >> 56;
		r->shift[i] = (int)((uint32_t)v - 1) - idx;
	}
	for (int h = 0; h < MMF_HIST; h++)
		r->hist[h] = mmf_page_hist(pg, h);
	/* The title's page kind, as the executor's. */
	snprintf(r->what, sizeof(r->what), "%s page", mmf_shadow_backing_name(sh, idx));
	return true;
}

static bool row_extends(const struct row *a, const struct row *b)
{
	return b->page == a->page + a->npages && a->nvals == b->nvals &&
	       !memcmp(a->tag, b->tag, sizeof(a->tag)) &&
	       !memcmp(a->shift, b->shift, sizeof(a->shift)) &&
	       !memcmp(a->hist, b->hist, sizeof(a->hist)) && !strcmp(a->what, b->what);
}

static void print_row(struct strbuf *sb, const struct row *r)
{
	mmf_sb_printf(sb, "\t{ %d, %d, %d, {", r->page, r->npages, r->nvals);
	for (int i = 0; i < r->nvals; i++)
		mmf_sb_printf(sb, "%s { 0x%02x, %d }", i ? "," : "", r->tag[i], r->shift[i]);
	mmf_sb_printf(sb, " }, { %d, %d, %d, %d }, \"%s\" },\n",
		  r->hist[0], r->hist[1], r->hist[2], r->hist[3], r->what);
}

/* The expect_N[] table of the read at si; returns its number of rows. */
static int expect_rows(struct mmf_cs_sim *sim, const struct mmf_shadow *sh, int si)
{
	struct row cur, next;
	int idx, n, nrows = 0;
	bool open = false;

	mmf_cs_range(&sim->p->stmts[si], &idx, &n);
	for (int i = 0; i < n; i++) {
		if (!row_of(sh, idx + i, &next))
			continue;
		if (open && row_extends(&cur, &next)) {
			cur.npages++;
			continue;
		}
		if (!nrows)
			mmf_sb_printf(&sim->data, "\nstatic const struct expect expect_%d[] = {\n", si);
		if (open)
			print_row(&sim->data, &cur);
		cur = next;
		open = true;
		nrows++;
	}
	if (open) {
		print_row(&sim->data, &cur);
		mmf_sb_puts(&sim->data, "};\n");
	}
	return nrows;
}

static long predict(const struct mmf_shadow *sh, const struct mmf_stmt *s)
{
	const char *why;
	int err = mmf_results_errno(sh, s, &why);
	int idx, n;

	/* The accounting oracle's documented errnos first. */
	if (err)
		return -err;
	mmf_cs_range(s, &idx, &n);
	return mmf_emitters[s->id]->predict(sh, s, idx, n);
}

static void sim_call(struct mmf_cs_sim *sim, struct mmf_shadow *sh, int si)
{
	const struct mmf_stmt *s = &sim->p->stmts[si];
	struct mmf_cs_info *in = &sim->info[si];
	struct mmf_vset vs;

	in->want = predict(sh, s);
	in->guard = guard_of(sh, s, si, in->want);
	if (mmf_emitters[s->id]->verifies)
		in->nrows = expect_rows(sim, sh, si);
	mmf_shadow_apply(sh, s, si, in->want);
	in->known_page = -1;
	for (int idx = 0; idx < MMF_ARENA_PAGES && in->known_page < 0; idx++)
		if (mmf_shadow_expect(sh, idx, &vs))
			in->known_page = idx;
}

static void sim_block(struct mmf_cs_sim *sim, struct mmf_shadow *sh, int from, int to)
{
	for (int i = from; i < to; i++)
		if (sim->p->stmts[i].id != MMF_COMMENT)
			sim_call(sim, sh, i);
}

/* The call makes a new file in the file slot of its first argument. */
static bool creates_file(const struct mmf_stmt *s)
{
	const struct mmf_call_desc *d = &mmf_calls[s->id];

	return (d->flags & MMF_CALL_DEFINES) && d->nr_args && d->args[0].type == MMF_ARG_FILE;
}

/* File slots that thread blocks between first and end re-create. */
static uint8_t threads_create(const struct mmf_prog *p, int first, int end)
{
	bool in_thread = false;
	uint8_t files = 0;

	for (int i = first; i < end; i++) {
		const struct mmf_stmt *s = &p->stmts[i];

		if (s->id == MMF_COMMENT)
			continue;
		if (mmf_calls[s->id].block != MMF_BLOCK_NONE)
			in_thread = mmf_calls[s->id].block == MMF_BLOCK_THREAD;
		else if (in_thread && creates_file(s))
			files |= 1u << s->args[0];
	}
	return files;
}

/* The child on a copy of the model, as the executor's fork block. */
static void sim_fork(struct mmf_cs_sim *sim, struct mmf_shadow *sh, int first, int bi)
{
	struct mmf_shadow *child = clone(sh);

	mmf_shadow_fork_child(child);
	mmf_shadow_child_of(child, sim->p, first, bi);
	child->contested_files |= threads_create(sim->p, first, bi);
	sim_block(sim, child, bi + 1, mmf_prog_block_end(sim->p, bi));
	mmf_shadow_delete(child);
	mmf_shadow_forked(sh, sim->p, first, bi);
}

/*
 * The race rules, and one more for the order of the simulation: a fork
 * child of the group may get the file a thread re-creates or the one
 * before it, depending on when it forks, and the thread has run its whole
 * block here before the fork. Such files are unknown to every party.
 */
static void group_begin(struct mmf_shadow *sh, const struct mmf_prog *p, int first, int join)
{
	bool fork = false;

	mmf_shadow_group_begin(sh, p, first, join);
	for (int i = first; i < join && !fork; i++)
		fork = p->stmts[i].id == MMF_FORK;
	if (fork)
		sh->contested_files |= threads_create(p, first, join);
}

void mmf_cs_simulate(struct mmf_cs_sim *sim)
{
	const struct mmf_prog *p = sim->p;
	struct mmf_shadow *sh = mmf_shadow_new(SIM_NONCE);
	int first = -1;

	for (int i = 0; i < p->nr; i++) {
		const struct mmf_stmt *s = &p->stmts[i];

		if (s->id == MMF_COMMENT)
			continue;
		switch (mmf_calls[s->id].block) {
		case MMF_BLOCK_FORK:
		case MMF_BLOCK_THREAD:
			if (first < 0) {
				first = i;
				group_begin(sh, p, i, mmf_prog_next_join(p, i));
			}
			/* A thread that did not start did not run its block. */
			sim->info[i] = (struct mmf_cs_info){ 0, MMF_CS_GUARD_SIGN, -1, 0 };
			if (s->id == MMF_FORK)
				sim_fork(sim, sh, first, i);
			else
				sim_block(sim, sh, i + 1, mmf_prog_block_end(p, i));
			i = mmf_prog_block_end(p, i);
			break;
		case MMF_BLOCK_JOIN:
			mmf_shadow_group_end(sh);
			first = -1;
			sim->info[i] = (struct mmf_cs_info){ 0, MMF_CS_GUARD_NONE, -1, 0 };
			break;
		case MMF_BLOCK_RACE:
			sim->info[i] = (struct mmf_cs_info){ 0, MMF_CS_GUARD_NONE, -1, 0 };
			break;
		case MMF_BLOCK_END:	/* skipped with its block above */
			break;
		case MMF_BLOCK_NONE:
			sim_call(sim, sh, i);
			break;
		}
	}
	mmf_shadow_delete(sh);
}
