// SPDX-License-Identifier: GPL-2.0
/*
 * The search: the last program alone first (most crashes are caused by the
 * program running when they happened), then all of them together, then
 * halves of a set that reproduces, as syzkaller's repro does for logs.
 */
#include <stdio.h>
#include <string.h>

#include "repro/repro.h"
#include "util/util.h"

/* A run counted, and the progress line when it is due. */
static void progress(const struct mmf_repro_ops *ops, int hit)
{
	struct mmf_repro_progress *p = ops->progress;
	uint64_t now = mmf_now_ns();
	char left[40] = "", t[24];
	double secs;

	if (!p || !ops->log)
		return;
	if (!p->t0_ns)
		p->t0_ns = p->shown_ns = now;
	p->runs++;
	p->hits += hit;
	if (now - p->shown_ns < MMF_REPRO_PROGRESS_MS * 1000000ull)
		return;
	p->shown_ns = now;
	secs = (now - p->t0_ns) / 1e9;
	if (ops->deadline_ns)
		snprintf(left, sizeof(left), ", %s left",
			 mmf_fmt_left(t, ((int64_t)ops->deadline_ns - (int64_t)now) / 1000000000));
	ops->log(ops->ctx, "[%6.0fs] runs %d (%.2f/s) hits %d%s", secs, p->runs, p->runs / secs,
		 p->hits, left);
}

int mmf_repro_hits(const struct mmf_repro_ops *ops, const struct mmf_prog *progs, int n,
		   const char *title, int attempts, bool stop_at_hit, int *runs)
{
	int hits = 0;

	*runs = 0;
	for (int i = 0; i < attempts && !(stop_at_hit && mmf_repro_expired(ops)); i++) {
		int r = ops->run(ops->ctx, progs, n, title);

		if (r < 0)
			return -1;
		progress(ops, r);
		(*runs)++;
		hits += r;
		if (hits && stop_at_hit)
			break;
	}
	return hits;
}

static int reproduces(const struct mmf_repro_ops *ops, const struct mmf_prog *progs, int n,
		      const char *title)
{
	int runs;

	return mmf_repro_hits(ops, progs, n, title, ops->attempts, true, &runs);
}

/*
 * A finding that came in a racing round names its delay on the log: the
 * program with every round at that delay goes first.
 */
static int at_recorded_delay(const struct mmf_repro_ops *ops, struct mmf_prog *p,
			     const char *title)
{
	int64_t delay = mmf_prog_race_mark(p);
	struct mmf_prog cand = *p;
	int r;

	if (delay < 0)
		return 0;
	for (int i = 0; i < cand.nr; i++)
		if (cand.stmts[i].id == MMF_RACE)
			cand.stmts[i].args[2] = cand.stmts[i].args[3] = delay;
	mmf_prog_normalize(&cand);
	if (ops->log)
		ops->log(ops->ctx, "trying the last program at its recorded delay, %lld ns",
			 (long long)delay);
	r = reproduces(ops, &cand, 1, title);
	if (r > 0)
		*p = cand;
	return r;
}

/* Narrow a reproducing set by halves while a half still reproduces. */
static int bisect(const struct mmf_repro_ops *ops, struct mmf_prog *set, int *n,
		  const char *title)
{
	while (*n > 1) {
		int half = *n / 2, r;

		r = reproduces(ops, set + half, *n - half, title);
		if (r < 0)
			return -1;
		if (r) {
			memmove(set, set + half, (*n - half) * sizeof(*set));
			*n -= half;
			continue;
		}
		r = reproduces(ops, set, half, title);
		if (r < 0)
			return -1;
		if (!r)
			break;	/* it takes programs from both halves */
		*n = half;
	}
	return 0;
}

int mmf_repro(const struct mmf_repro_ops *ops, const struct mmf_prog *progs, int n,
	      const char *title, struct mmf_repro_result *res)
{
	int r;

	memset(res, 0, sizeof(*res));
	if (n <= 0)
		return 0;
	/* The newest programs are the likeliest culprits: keep those. */
	if (n > MMF_REPRO_MAX_PROGS) {
		progs += n - MMF_REPRO_MAX_PROGS;
		n = MMF_REPRO_MAX_PROGS;
	}
	memcpy(res->progs, progs, n * sizeof(*progs));
	res->nr_progs = n;
	r = at_recorded_delay(ops, &res->progs[n - 1], title);
	if (!r && ops->log)
		ops->log(ops->ctx, "trying the last program alone");
	if (!r)
		r = reproduces(ops, &res->progs[n - 1], 1, title);
	if (r < 0)
		return -1;
	if (r) {
		res->progs[0] = res->progs[n - 1];
		res->nr_progs = 1;
	} else if (n > 1) {
		if (ops->log)
			ops->log(ops->ctx, "trying all %d programs concurrently", n);
		r = reproduces(ops, res->progs, n, title);
		if (r < 0 || (r && bisect(ops, res->progs, &res->nr_progs, title)))
			return -1;
	}
	if (!r)
		return 0;
	res->found = 1;
	for (int i = 0; i < res->nr_progs; i++)
		res->calls_before += mmf_prog_nr_calls(&res->progs[i]);
	if (res->nr_progs == 1 &&
	    mmf_repro_minimize(ops, &res->progs[0], title, &res->steps) < 0)
		return -1;
	for (int i = 0; i < res->nr_progs; i++)
		res->calls_after += mmf_prog_nr_calls(&res->progs[i]);
	res->hits = mmf_repro_hits(ops, res->progs, res->nr_progs, title, ops->attempts, false,
			     &res->runs);
	/*
	 * A reproducer hits again once made: one that hit by chance during
	 * the search and never in the runs that measure it (a bug that needs
	 * state earlier programs left) is none.
	 */
	if (res->hits == 0)
		res->found = 0;
	return res->hits < 0 ? -1 : 0;
}
