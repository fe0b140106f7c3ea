// SPDX-License-Identifier: GPL-2.0
/* Per-call success rates and errnos of a fuzzing run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/callstats.h"

/* The kernel's -MAX_ERRNO: anything lower is not an error return. */
#define MAX_ERRNO	4095

void mmf_callstats_count(struct mmf_callstats *cs, int id, int64_t res)
{
	struct mmf_callstat *c;
	int i;

	if (id < 0 || id >= MMF_NR_CALLS)
		return;
	c = &cs->c[id];
	c->runs++;
	if (res >= 0) {
		c->ok++;
		return;
	}
	if (res < -MAX_ERRNO) {
		c->other++;
		return;
	}
	for (i = 0; i < c->nr_errs && c->errs[i].err != -res; i++)
		;
	if (i == MMF_CALLSTATS_ERRS) {
		c->other++;
		return;
	}
	if (i == c->nr_errs) {
		c->errs[i].err = -res;
		c->errs[i].n = 0;
		c->nr_errs++;
	}
	c->errs[i].n++;
}

void mmf_callstats_add(struct mmf_callstats *cs, const struct mmf_prog *p,
		       const struct mmf_exec_result *r)
{
	for (int i = 0; i < r->nr_results; i++) {
		const struct mmf_call_result *c = &r->results[i];

		if (c->si < 0 || c->si >= p->nr)
			continue;
		mmf_callstats_count(cs, p->stmts[c->si].id, c->res);
		cs->c[p->stmts[c->si].id].call_ns += c->call_ns;
		cs->c[p->stmts[c->si].id].check_ns += c->check_ns;
	}
	cs->progs++;
	cs->prog_ns += r->ns;
	for (int i = 0; i < MMF_NR_PHASES; i++)
		cs->phase_ns[i] += r->phase_ns[i];
	cs->user_ns += r->user_ns;
	cs->sys_ns += r->sys_ns;
}

static bool is_block(int id)
{
	return mmf_calls[id].block != MMF_BLOCK_NONE;
}

/* Calls by name, then the block statements by name. */
static int cmp_calls(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	if (is_block(x) != is_block(y))
		return is_block(x) - is_block(y);
	return strcmp(mmf_calls[x].name, mmf_calls[y].name);
}

/* Call ids in the table's order; "}" has no result of its own. */
static int table_order(int *ids)
{
	int n = 0;

	for (int id = 0; id < MMF_NR_CALLS; id++)
		if (mmf_calls[id].block != MMF_BLOCK_END)
			ids[n++] = id;
	qsort(ids, n, sizeof(*ids), cmp_calls);
	return n;
}

/* Commonest first; equal counts by errno, so that the order is stable. */
static int cmp_errs(const void *a, const void *b)
{
	const struct mmf_callstat_err *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return x->err - y->err;
}

static void sorted_errs(const struct mmf_callstat *c, struct mmf_callstat *out)
{
	*out = *c;
	qsort(out->errs, out->nr_errs, sizeof(out->errs[0]), cmp_errs);
}

static const char *errno_name(int err, char *buf, size_t n)
{
	const char *name = strerrorname_np(err);

	if (name)
		return name;
	/* Kernel-internal ones such as ENOTSUPP (524) have no libc name. */
	snprintf(buf, n, "ERRNO%d", err);
	return buf;
}

static bool low(const struct mmf_callstat *c)
{
	return c->runs && c->ok * 3 < c->runs;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

/* The program's wall time split: statements' calls and checks (children's
 * and threads' overlap the main line's), the rest of the program (fork,
 * exit, accounting), and the loop's own work between programs.
 */
static void print_profile(const struct mmf_callstats *cs, uint64_t calls, uint64_t checks,
			  FILE *f)
{
	static const char *const what[MMF_NR_PHASES] = {
		[MMF_PHASE_SETUP] = "setup", [MMF_PHASE_START] = "fork to first call",
		[MMF_PHASE_END] = "end checks", [MMF_PHASE_EXIT] = "exit",
		[MMF_PHASE_AFTER] = "after (knobs, accounting)",
	};
	uint64_t body = cs->phase_ns[MMF_PHASE_BODY], stmts = calls + checks;
	uint64_t loop = cs->run_ns > cs->prog_ns ? cs->run_ns - cs->prog_ns : 0;

	if (!cs->progs)
		return;
	/* Calls of fork children and threads overlap the main line's. */
	fprintf(f, "profile: %llu programs, %.1f ms each: calls %.0f%%, checks after them %.0f%%,"
		" between them %.0f%%", (unsigned long long)cs->progs,
		cs->prog_ns / 1e6 / cs->progs, pct(calls, cs->prog_ns), pct(checks, cs->prog_ns),
		pct(body > stmts ? body - stmts : 0, cs->prog_ns));
	for (int i = 0; i < MMF_NR_PHASES; i++)
		if (what[i])
			fprintf(f, ", %s %.0f%%", what[i], pct(cs->phase_ns[i], cs->prog_ns));
	fprintf(f, "; kernel %.0f%%, user %.0f%% of it", pct(cs->sys_ns, cs->prog_ns),
		pct(cs->user_ns, cs->prog_ns));
	if (cs->run_ns)
		fprintf(f, "; between programs %.0f%% of the run", pct(loop, cs->run_ns));
	fprintf(f, "\n");
}

void mmf_callstats_print(const struct mmf_callstats *cs, FILE *f)
{
	int ids[MMF_NR_CALLS], n = table_order(ids), never = 0;
	uint64_t calls = 0, checks = 0;

	for (int id = 0; id < MMF_NR_CALLS; id++) {
		calls += cs->c[id].call_ns;
		checks += cs->c[id].check_ns;
	}
	print_profile(cs, calls, checks, f);
	fprintf(f, "per-call results (errnos as a share of runs; * ok in under a third;"
		" time: mean ms per run, share of all statements' time):\n");
	fprintf(f, "  %-20s %8s %6s %7s %5s  %s\n", "call", "runs", "ok", "ms", "time",
		"commonest errnos");
	for (int i = 0; i < n; i++) {
		const struct mmf_callstat *c = &cs->c[ids[i]];
		struct mmf_callstat s;

		if (!c->runs) {
			never++;
			continue;
		}
		sorted_errs(c, &s);
		fprintf(f, "  %-20s %8llu %5.1f%% %7.2f %4.0f%%", mmf_calls[ids[i]].name,
			(unsigned long long)c->runs, 100.0 * c->ok / c->runs,
			(c->call_ns + c->check_ns) / 1e6 / c->runs,
			pct(c->call_ns + c->check_ns, calls + checks));
		for (int e = 0; e < MIN(s.nr_errs, 3); e++) {
			double share = 100.0 * s.errs[e].n / c->runs;
			char buf[16];

			fprintf(f, "%s%s ", e ? " " : "  ",
				errno_name(s.errs[e].err, buf, sizeof(buf)));
			if (share < 0.5)
				fprintf(f, "<1%%");
			else
				fprintf(f, "%.0f%%", share);
		}
		fprintf(f, "%s\n", low(c) ? " *" : "");
	}
	if (!never)
		return;
	fprintf(f, "  never ran:");
	for (int i = 0; i < n; i++)
		if (!cs->c[ids[i]].runs)
			fprintf(f, " %s", mmf_calls[ids[i]].name);
	fprintf(f, "\n");
}

void mmf_callstats_json(const struct mmf_callstats *cs, struct strbuf *sb)
{
	int ids[MMF_NR_CALLS], n = table_order(ids);

	mmf_sb_puts(sb, "{\"calls\":[");
	for (int i = 0; i < n; i++) {
		const struct mmf_callstat *c = &cs->c[ids[i]];
		struct mmf_callstat s;

		sorted_errs(c, &s);
		mmf_sb_puts(sb, i ? ",{\"call\":" : "{\"call\":");
		mmf_sb_json_str(sb, mmf_calls[ids[i]].name);
		mmf_sb_printf(sb, ",\"runs\":%llu,\"ok\":%llu,\"call_ns\":%llu,\"check_ns\":%llu,"
			      "\"low\":%s,\"block\":%s,\"errnos\":[",
			      (unsigned long long)c->runs, (unsigned long long)c->ok,
			      (unsigned long long)c->call_ns, (unsigned long long)c->check_ns,
			      low(c) ? "true" : "false", is_block(ids[i]) ? "true" : "false");
		for (int e = 0; e < s.nr_errs; e++) {
			char buf[16];

			mmf_sb_printf(sb, "%s{\"errno\":\"%s\",\"count\":%llu}", e ? "," : "",
				      errno_name(s.errs[e].err, buf, sizeof(buf)),
				      (unsigned long long)s.errs[e].n);
		}
		mmf_sb_printf(sb, "],\"other\":%llu}", (unsigned long long)c->other);
	}
	mmf_sb_printf(sb, "],\"programs\":%llu,\"program_ns\":%llu,\"user_ns\":%llu,"
		      "\"sys_ns\":%llu,\"run_ns\":%llu,\"phase_ns\":{",
		      (unsigned long long)cs->progs, (unsigned long long)cs->prog_ns,
		      (unsigned long long)cs->user_ns, (unsigned long long)cs->sys_ns,
		      (unsigned long long)cs->run_ns);
	for (int i = 0; i < MMF_NR_PHASES; i++)
		mmf_sb_printf(sb, "%s\"%s\":%llu", i ? "," : "", mmf_phase_name(i),
			      (unsigned long long)cs->phase_ns[i]);
	mmf_sb_puts(sb, "}}\n");
}
