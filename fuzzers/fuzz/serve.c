// SPDX-License-Identifier: GPL-2.0
/* The guest's end of reproduction in a guest: run what the host sends. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "exec/kcov.h"
#include "fuzz/native.h"
#include "fuzz/stress.h"
#include "repro/repro.h"
#include "cover/focus.h"
#include "util/util.h"

/* The coverage map of cover requests and its focus: one per guest. */
static struct mmf_focus focus;
static bool focused;
static struct mmf_cover *cover;

static int set_focus(const char *req)
{
	char err[256];

	mmf_focus_free(&focus);
	focused = false;
	if (mmf_focus_parse(req + strlen(MMF_SERVE_FOCUS), strlen(req + strlen(MMF_SERVE_FOCUS)),
			    &focus, err, sizeof(err))) {
		mmf_warnx_("serve: bad focus: %s", err);
		return -1;
	}
	focused = true;
	return 0;
}

/* Lines of at most per items each: the host reads lines of 4 KiB. */
static void put_items(struct strbuf *out, const char *key, int *k, int per)
{
	if (*k && *k % per == 0)
		mmf_sb_printf(out, "\n%s", key);
	else if (!*k)
		mmf_sb_puts(out, key);
	(*k)++;
}

/* The map's distinct PCs (those of the focus). */
static void put_pcs(struct strbuf *out)
{
	int k = 0;

	for (int i = 0; i < MMF_COVER_PCS; i++) {
		if (!cover->pcs[i])
			continue;
		put_items(out, MMF_SERVE_PCS, &k, 128);
		mmf_sb_printf(out, "%llx ", (unsigned long long)cover->pcs[i]);
	}
	if (k)
		mmf_sb_puts(out, "\n");
}

/* The map of cover requests, empty, with the focus if one was sent. */
static struct mmf_cover *cover_map(void)
{
	if (!cover)
		cover = mmf_cover_new(NULL);
	if (!cover)
		return NULL;
	mmf_cover_reset(cover);
	cover->focus = focused ? &focus : NULL;
	return cover;
}

/* A run's reports: each one's title line and its text, escaped, on one line. */
static void put_reports(struct strbuf *out, const struct mmf_exec_result *r)
{
	for (int i = 0; i < r->nr_reports; i++) {
		mmf_sb_printf(out, MMF_SERVE_TITLE "%.*s\n" MMF_SERVE_REPORT,
			      (int)strcspn(r->reports[i].title, "\n"), r->reports[i].title);
		mmf_sb_escaped_line(out, r->reports[i].body);
		mmf_sb_puts(out, "\n");
	}
}

/*
 * One program with its behaviour trace: its status, every call's result
 * and the page states after it, the process's counters, the reports.
 */
static int trace_one(const struct mmf_exec_opts *opts, const char *req, struct strbuf *out)
{
	struct mmf_exec_opts eo = *opts;
	struct mmf_exec_result r;
	struct mmf_prog p;
	char err[256];

	if (mmf_prog_parse(req + strlen(MMF_SERVE_TRACE), &p, err, sizeof(err))) {
		mmf_warnx_("serve: bad program: %s", err);
		return -1;
	}
	_Static_assert(MMF_STATE_PAGES == MMF_SERVE_TRACE_PAGES, "a traced call's pages");
	eo.trace = true;
	eo.cover = NULL;
	if (mmf_exec_prog(&p, &eo, &r))
		return -1;
	mmf_sb_printf(out, MMF_SERVE_STATUS "%s\n", mmf_run_status_name(r.status));
	for (int i = 0; i < r.nr_results; i++) {
		const struct mmf_call_result *c = &r.results[i];
		char hex[2 * MMF_STATE_PAGES + 1];

		mmf_hex_put(hex, c->states, c->nstates);
		mmf_sb_printf(out, MMF_SERVE_CALL "%d %d %lld %d %s\n", c->si, c->party,
			      (long long)c->res, c->nstates, hex);
	}
	if (r.has_counters)
		mmf_sb_printf(out, MMF_SERVE_COUNTERS "%ld %ld %ld %ld\n", r.counters[0],
			      r.counters[1], r.counters[2], r.counters[3]);
	put_reports(out, &r);
	mmf_exec_result_free(&r);
	return 0;
}

/* One program with kernel coverage: its status, titles, edges and PCs. */
static int cover_one(const struct mmf_exec_opts *opts, const char *req, struct strbuf *out)
{
	struct mmf_exec_opts eo = *opts;
	struct mmf_exec_result r;
	struct mmf_prog p;
	char err[256];
	int k;

	if (mmf_prog_parse(req + strlen(MMF_SERVE_COVER), &p, err, sizeof(err))) {
		mmf_warnx_("serve: bad program: %s", err);
		return -1;
	}
	if (!cover_map())
		return -1;
	/* What the program did to the machine and its pages, KCOV or not. */
	cover->state = true;
	eo.cover = cover;
	if (mmf_exec_prog(&p, &eo, &r))
		return -1;
	mmf_sb_printf(out, MMF_SERVE_STATUS "%s %llu %s %llu %llu",
		      mmf_run_status_name(r.status), (unsigned long long)r.ns,
		      mmf_kcov_available() ? "kcov+state" : "state", (unsigned long long)r.user_ns,
		      (unsigned long long)r.sys_ns);
	_Static_assert(MMF_NR_PHASES == MMF_SERVE_PHASES, "the status line's phases");
	for (int i = 0; i < MMF_NR_PHASES; i++)
		mmf_sb_printf(out, " %llu", (unsigned long long)r.phase_ns[i]);
	mmf_sb_puts(out, "\n");
	put_reports(out, &r);
	mmf_exec_result_free(&r);
	k = 0;
	for (int e = 0; e < MMF_COVER_EDGES; e++) {
		if (!cover->edges[e])
			continue;
		put_items(out, MMF_SERVE_EDGES, &k, 256);
		mmf_sb_printf(out, "%x:%x ", e, cover->edges[e]);
	}
	if (k)
		mmf_sb_puts(out, "\n");
	put_pcs(out);
	return 0;
}

/* A benchmark's tasks, traced whole into the map of cover requests. */
static void bench_task(bool start)
{
	mmf_kcov_task_cover(cover, start);
}

/* Runs of a benchmark on the swap devices the programs use. */
static int bench(const struct mmf_exec_opts *opts, struct mmf_journal *j, const char *req,
		 struct strbuf *out)
{
	const struct mmf_bench_info *b;
	struct mmf_bench_ctx ctx;
	char name[64], how[16] = "";
	int runs, nr = 0;
	bool traced;

	if (sscanf(req + strlen(MMF_SERVE_BENCH), "%63s %d %15s", name, &runs, how) < 2)
		return -1;
	/* "cover": the kernel's coverage of all runs, as a program's. */
	traced = !strcmp(how, MMF_SERVE_COVER) && mmf_kcov_available();
	if (traced && !cover_map())
		return -1;
	b = mmf_bench_find(name);
	if (!b)
		return -1;
	mmf_bench_ctx_default(&ctx);
	while (nr < MMF_NR_SWAPS && opts->swaps[nr])
		nr++;
	ctx.nr_swaps = nr;
	ctx.swaps = opts->swaps;
	ctx.j = j;
	ctx.task = traced ? bench_task : NULL;
	/* What a run reaches needs a fraction of its memory, not its minutes. */
	if (traced)
		ctx.mem_bytes /= 8;
	for (int i = 0; i < runs; i++) {
		struct mmf_bench_result res = { 0 };
		int r = mmf_bench_run(b, &ctx, &res);

		/* Not on this kernel: no runs. A failed run is left out. */
		if (r == -EOPNOTSUPP)
			break;
		if (r < 0)
			continue;
		mmf_sb_puts(out, MMF_SERVE_BENCH);
		mmf_bench_json(name, i + 1, &res, out);
		mmf_sb_puts(out, "\n");
	}
	if (traced)
		put_pcs(out);
	return 0;
}

/* Answer one request (the text before its end line). */
static void answer(int fd, const struct mmf_exec_opts *opts, struct mmf_journal *j,
		   const char *req)
{
	static struct mmf_prog progs[MMF_REPRO_MAX_PROGS];
	struct strbuf out, titles;
	char err[256], *line, *save;
	int n, rc;

	mmf_sb_init(&out);
	mmf_sb_init(&titles);
	if (!strncmp(req, MMF_SERVE_BENCH, strlen(MMF_SERVE_BENCH))) {
		rc = bench(opts, j, req, &out);
		goto done;
	}
	if (!strncmp(req, MMF_SERVE_FOCUS "\n", strlen(MMF_SERVE_FOCUS) + 1)) {
		rc = set_focus(req);
		goto done;
	}
	if (!strncmp(req, MMF_SERVE_COVER "\n", strlen(MMF_SERVE_COVER) + 1)) {
		rc = cover_one(opts, req, &out);
		goto done;
	}
	if (!strncmp(req, MMF_SERVE_TRACE "\n", strlen(MMF_SERVE_TRACE) + 1)) {
		rc = trace_one(opts, req, &out);
		goto done;
	}
	n = mmf_progs_parse(req, progs, ARRAY_SIZE(progs), err, sizeof(err));
	if (n < 0)
		mmf_warnx_("serve: bad request: %s", err);
	rc = n < 0 ? -1 : mmf_native_titles(opts, progs, n, &titles);
	line = titles.len ? strtok_r(titles.buf, "\n", &save) : NULL;
	for (; line; line = strtok_r(NULL, "\n", &save))
		mmf_sb_printf(&out, MMF_SERVE_TITLE "%s\n", line);
done:
	mmf_sb_printf(&out, MMF_SERVE_DONE "%d\n", rc);
	mmf_write_all(fd, out.buf, out.len);
	mmf_sb_free(&out);
	mmf_sb_free(&titles);
}

int mmf_serve(int fd, const struct mmf_exec_opts *opts, struct mmf_journal *j,
	      struct mmf_stress_run *run)
{
	static const char end[] = "\n" MMF_SERVE_END "\n";
	struct strbuf in;
	char buf[4096];
	ssize_t k;

	mmf_sb_init(&in);
	if (dprintf(fd, MMF_SERVE_READY "\n") < 0)
		return -1;
	for (;;) {
		char *e;

		k = read(fd, buf, sizeof(buf));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		mmf_sb_add(&in, buf, k);
		/* A request may end in the middle of a read, several in one. */
		while (in.len && (e = strstr(in.buf, end))) {
			size_t used = e - in.buf + strlen(end);

			*e = '\0';
			answer(fd, opts, j, in.buf);
			mmf_stress_beat(run);
			memmove(in.buf, in.buf + used, in.len - used + 1);
			in.len -= used;
		}
	}
	mmf_sb_free(&in);
	return k < 0 ? -1 : 0;
}
