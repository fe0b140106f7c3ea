// SPDX-License-Identifier: GPL-2.0
/*
 * From console lines to reports: find the line that starts a report, pick
 * the lines that belong to it, and have it titled.
 *
 * A report runs until the next line that starts another one. When lines
 * carry caller ids, lines of other tasks and CPUs are left out of it
 * instead, so interleaved output does not end it early.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"
#include "report/report.h"

#define NONE SIZE_MAX

/* Whether line i's text (after its stamp: the kernel's message) holds s. */
static bool contains(const struct console *con, size_t i, const char *s)
{
	const struct cline *l = &con->lines[i];

	return memmem(cline_text(con, i), l->len, s, strlen(s));
}

static bool matches_any(const char *const *res, const struct console *con, size_t i)
{
	const struct cline *l = &con->lines[i];

	for (; res && *res; res++)
		if (mmf_rx_find(*res, con->buf, l->text, l->text + l->len, NULL))
			return true;
	return false;
}

/*
 * Lines that echo what they were given, never a report's start: the
 * kernel's command line and init's of the fuzzer's options, where a test
 * hook's argument may read "WARNING:15", the fuzzer's line for a report
 * it saved, and the rows of its closing table of titles (store/tally.c).
 */
static const char *const echoes[] = {
	"Kernel command line: ", "^Command line: ", "mmfuzz-init: running: ", "^REPORT: ",
	"^ +[0-9]+  (new |known) ", NULL,
};

/* Which kind of report line i starts, -1 if none. */
static int line_oops(const struct console *con, size_t i)
{
	const struct cline *l = &con->lines[i];

	if (matches_any(echoes, con, i))
		return -1;
	for (size_t k = 0; k < mmf_nr_oopses; k++) {
		const struct oops *o = &mmf_oopses[k];

		if (!contains(con, i, o->header))
			continue;
		if (o->line_re && !mmf_rx_find(o->line_re, con->buf, l->text, l->text + l->len, NULL))
			continue;
		if (matches_any(o->ignore, con, i))
			continue;
		return k;
	}
	return -1;
}

struct collected {
	struct strbuf text;	/* context lines, then the report's lines */
	size_t body;		/* where the report's own lines start in text */
	size_t titled;		/* end of the part that is titled */
	size_t end;		/* input offset after the last line in titled */
	size_t next;		/* line where to look for the next report */
};

static void add_line(struct strbuf *sb, const struct console *con, size_t i)
{
	mmf_sb_add(sb, cline_text(con, i), con->lines[i].len);
	mmf_sb_add(sb, "\n", 1);
}

/* Lines printed just before the report by the same task or CPU. */
static void collect_context(const struct console *con, size_t from, size_t start,
			    struct collected *c)
{
	const char *ctx = con->lines[start].ctx;
	size_t want = ctx[0] == 'T' ? 50 : 5, first = start;

	for (size_t i = start; i-- > from && want;) {
		const struct cline *l = &con->lines[i];

		if (strcmp(l->ctx, ctx) || !l->len || l->questionable)
			continue;
		first = i;
		want--;
	}
	for (size_t i = first; i < start; i++) {
		const struct cline *l = &con->lines[i];

		if (!strcmp(l->ctx, ctx) && l->len && !l->questionable)
			add_line(&c->text, con, i);
	}
}

/*
 * Bounds on the lines looked at for one report, so that a long log with
 * many reports is parsed in linear time: a report keeps at most
 * MAX_REPORT_LINES lines, looked for among MAX_SCAN_LINES; past the next
 * report's start, lines only serve the stack check.
 */
#define MAX_REPORT_LINES 2000
#define MAX_SCAN_LINES 50000
#define MAX_TAIL_LINES 1000

static bool starts_report(const struct console *con, size_t i)
{
	return con->lines[i].oops >= 0 && !matches_any(mmf_mid_report, con, i);
}

static void collect(const struct console *con, size_t from, size_t start, struct collected *c)
{
	const char *ctx = con->lines[start].ctx;
	/* with caller ids, other contexts' lines are filtered, not an end */
	bool own_ctx = ctx[0] && strcmp(ctx, "console");
	/* KMSAN reports have no "Call Trace:" and less text before the panic */
	size_t min_lines = contains(con, start, "BUG: KMSAN:") ? 16 : 22;
	size_t stop = MIN(con->n, start + MAX_SCAN_LINES);
	bool skip_rest = false, all_cpus = false;
	size_t nlines = 0, i;

	mmf_sb_init(&c->text);
	collect_context(con, from, start, c);
	c->body = c->text.len;
	c->next = NONE;
	for (i = start; i < stop; i++) {
		const struct cline *l = &con->lines[i];
		bool first = i == start, skip;

		if (!first && c->next == NONE &&
		    (starts_report(con, i) || matches_any(mmf_stack_dumpers, con, i))) {
			c->next = i;
			if (!own_ctx)
				stop = MIN(stop, i + MAX_TAIL_LINES);
		}
		if (!first && (l->questionable ||
			       (strcmp(l->ctx, ctx) && !(all_cpus && l->ctx[0] == 'C'))))
			continue;
		if (++nlines > MAX_REPORT_LINES)
			break;
		skip = skip_rest;
		if (contains(con, i, "Disabling lock debugging due to kernel taint")) {
			skip = true;
		} else if (contains(con, i, "Sending NMI from CPU")) {
			/* backtraces of all CPUs follow, each in its own context */
			all_cpus = true;
		} else if (nlines > min_lines &&
			   (contains(con, i, "Kernel panic - not syncing") ||
			    contains(con, i, "WARNING: possible circular locking dependency"))) {
			/*
			 * A panic after the report (panic_on_warn) repeats its
			 * stack; an oops often triggers a lockdep splat.
			 */
			skip_rest = skip = true;
		}
		if (!first && skip)
			continue;
		add_line(&c->text, con, i);
		if (c->next == NONE || own_ctx) {
			c->titled = c->text.len;
			c->end = l->next;
		}
	}
	/* cut short by the bounds: look for more reports after it */
	if (c->next == NONE)
		c->next = i;
}

static void make_report(const struct console *con, size_t from, size_t start,
			struct mmf_report *r, size_t *next)
{
	const struct oops *o = &mmf_oopses[con->lines[start].oops];
	struct title_result tr;
	struct collected c;

	collect(con, from, start, &c);
	mmf_extract_title(o, c.text.buf + c.body, c.titled - c.body, &tr);
	r->corrupted = mmf_report_corrupted(&tr, c.text.buf + c.body, c.titled - c.body,
					c.text.len - c.body);
	r->title = mmf_sanitize_title(tr.title);
	free(tr.title);
	r->alt_titles = tr.alt;
	r->nr_alt = tr.nr_alt;
	for (int i = 0; i < r->nr_alt; i++) {
		char *s = mmf_sanitize_title(r->alt_titles[i]);

		free(r->alt_titles[i]);
		r->alt_titles[i] = s;
	}
	r->type = mmf_title_type(r->title);
	r->frame = tr.fmt && (tr.fmt->flags & OOPS_FREE_TEXT) ? NULL : mmf_title_frame(r->title);
	c.text.len = c.titled;
	c.text.buf[c.titled] = '\0';
	r->text = mmf_sb_detach(&c.text);
	r->start = con->lines[start].off;
	r->end = c.end;
	*next = c.next;
}

int mmf_report_parse(const char *log, size_t len, struct mmf_report **out)
{
	struct mmf_report *reps = NULL;
	struct console con;
	size_t from = 0;
	int n = 0;

	mmf_console_split(&con, log, len);
	for (size_t i = 0; i < con.n; i++)
		con.lines[i].oops = line_oops(&con, i);
	while (from < con.n) {
		size_t start = from, next;

		while (start < con.n && con.lines[start].oops < 0)
			start++;
		if (start == con.n)
			break;
		reps = mmf_xrealloc(reps, (n + 1) * sizeof(*reps));
		make_report(&con, from, start, &reps[n++], &next);
		from = next;
	}
	mmf_console_free(&con);
	*out = reps;
	return n;
}

void mmf_reports_free(struct mmf_report *r, int n)
{
	for (int i = 0; i < n; i++) {
		free(r[i].title);
		for (int j = 0; j < r[i].nr_alt; j++)
			free(r[i].alt_titles[j]);
		free(r[i].alt_titles);
		free(r[i].frame);
		free(r[i].text);
	}
	free(r);
}
