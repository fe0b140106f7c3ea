// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/monitor.h"
#include "report/report.h"
#include "util/util.h"

/* Kernel lines of a report past which it is taken as whole. */
#define REPORT_LINES	2000
/* A kernel line this much later than the report's last is not of it. */
#define REPORT_GAP_S	1.0

struct mmf_monitor {
	struct mmf_monitor_opts o;
	struct strbuf log;
	uint64_t start_ms, last_ms;
	size_t ready_at;	/* offset of the ready line, or SIZE_MAX */
	size_t scanned;		/* the ready line is searched from here */
	/* When each feed arrived: its end offset and time. */
	struct { size_t end; uint64_t ms; } *feeds;
	size_t nr_feeds;
};

struct mmf_monitor *mmf_monitor_new(const struct mmf_monitor_opts *o, uint64_t now_ms)
{
	struct mmf_monitor *m = mmf_xcalloc(1, sizeof(*m));

	m->o = *o;
	mmf_sb_init(&m->log);
	m->start_ms = m->last_ms = now_ms;
	m->ready_at = SIZE_MAX;
	return m;
}

void mmf_monitor_free(struct mmf_monitor *m)
{
	if (!m)
		return;
	mmf_sb_free(&m->log);
	free(m->feeds);
	free(m);
}

void mmf_monitor_feed(struct mmf_monitor *m, const char *buf, size_t n, uint64_t now_ms)
{
	if (!n)
		return;
	mmf_sb_add(&m->log, buf, n);
	m->last_ms = now_ms;
	m->feeds = mmf_xrealloc(m->feeds, (m->nr_feeds + 1) * sizeof(*m->feeds));
	m->feeds[m->nr_feeds].end = m->log.len;
	m->feeds[m->nr_feeds++].ms = now_ms;
	if (m->ready_at == SIZE_MAX && m->o.ready) {
		/* Back up by the marker's length: it may straddle two feeds. */
		size_t from = m->scanned > strlen(m->o.ready) ? m->scanned - strlen(m->o.ready) : 0;
		char *hit = strstr(m->log.buf + from, m->o.ready);

		if (hit)
			m->ready_at = hit - m->log.buf;
		m->scanned = m->log.len;
	}
}

uint64_t mmf_monitor_time_at(const struct mmf_monitor *m, size_t off)
{
	size_t lo = 0, hi = m->nr_feeds;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (m->feeds[mid].end < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->nr_feeds ? m->feeds[lo].ms : m->last_ms;
}

bool mmf_monitor_ready(const struct mmf_monitor *m)
{
	return m->ready_at != SIZE_MAX;
}

const char *mmf_monitor_log(const struct mmf_monitor *m, size_t *len)
{
	*len = m->log.len;
	return m->log.buf ? m->log.buf : "";
}

/*
 * Where the kernel report that starts at start ends: the offset after its
 * last line, or 0 while it may still grow. Its lines are the kernel's (of
 * the same caller, when the console has caller ids). It ends with its "---[ end
 * trace" line; before a kernel line of a later burst (REPORT_GAP_S after
 * its last by the kernel's clock); after REPORT_LINES; or before a line of
 * user space once the kernel printed none of the report for a tenth of the
 * settle time (before that, user space is only interleaved with a report
 * the kernel is still printing).
 */
static size_t report_end(const struct mmf_monitor *m, size_t start, uint64_t now_ms)
{
	const char *log = m->log.buf;
	size_t len = m->log.len, last = start, user = 0;
	uint64_t grace = m->o.settle_ms / 10;
	char who[16] = "", caller[16];
	double prev = 0, t;
	int lines = 0;

	for (size_t ls = start; ls < len;) {
		const char *nl = memchr(log + ls, '\n', len - ls), *text;
		size_t le;

		if (!nl)
			break;
		le = nl - log + 1;
		text = mmf_console_message(log + ls, nl - (log + ls), &t, caller);
		if (!lines && !text)
			return 0;	/* no stamps: only death or silence tell */
		if (!lines)
			memcpy(who, caller, sizeof(who));
		if (!text) {
			user = user ? user : ls;	/* maybe the end, maybe interleaved */
		} else if (!strcmp(caller, who)) {
			/* A line of the report again: the user-space ones were interleaved. */
			if (user && mmf_monitor_time_at(m, le) - mmf_monitor_time_at(m, last) >= grace)
				return user;
			if (lines && t - prev >= REPORT_GAP_S)
				return user ? user : ls;
			user = 0;
			prev = t;
			last = le;
			if (memmem(text, nl - text, "---[ end trace", 14) || ++lines >= REPORT_LINES)
				return le;
		}
		/* With caller ids, other tasks' lines are only interleaved. */
		ls = le;
	}
	return user && now_ms - mmf_monitor_time_at(m, last) >= grace ? user : 0;
}

/* mmfuzz's own oracles' reports come on the findings channel, not here. */
static bool oracle_report(const struct mmf_report *r)
{
	return !strcmp(r->type, "DATA_CORRUPTION") || !strcmp(r->type, "ACCOUNTING");
}

static void found(struct mmf_finding *f, enum mmf_finding_kind kind, const char *title,
		  const char *report, bool corrupted)
{
	f->kind = kind;
	f->title = mmf_xstrdup(title);
	f->report = mmf_xstrdup(report ? report : "");
	f->corrupted = corrupted;
}

static void found_report(struct mmf_finding *f, enum mmf_finding_kind kind,
			 const struct mmf_report *r)
{
	found(f, kind, r->title, r->text, r->corrupted);
	f->alt_titles = mmf_xcalloc(r->nr_alt + 1, sizeof(*f->alt_titles));
	for (int i = 0; i < r->nr_alt; i++)
		f->alt_titles[i] = mmf_xstrdup(r->alt_titles[i]);
	f->nr_alt = r->nr_alt;
}

/*
 * The report that starts where r does, parsed from the console up to its
 * end alone, so that what came after it (the fuzzer's lines) is not in
 * its text.
 */
static void found_upto(const struct mmf_monitor *m, struct mmf_finding *f,
		       enum mmf_finding_kind kind, const struct mmf_report *r, size_t end)
{
	struct mmf_report *cut = NULL;
	int n = end < m->log.len ? mmf_report_parse(m->log.buf, end, &cut) : 0;
	const struct mmf_report *use = r;

	for (int i = 0; i < n; i++)
		if (cut[i].start == r->start)
			use = &cut[i];
	found_report(f, kind, use);
	f->end = end;
	if (n > 0)
		mmf_reports_free(cut, n);
}

int mmf_monitor_poll(struct mmf_monitor *m, uint64_t now_ms, bool dead, struct mmf_finding *f)
{
	struct mmf_report *reps = NULL;
	bool quiet = now_ms - m->last_ms >= m->o.settle_ms;
	int n = m->log.len ? mmf_report_parse(m->log.buf, m->log.len, &reps) : 0;

	memset(f, 0, sizeof(*f));
	for (int i = 0; i < n; i++) {
		/* The first kernel report is the finding; later ones are its fallout. */
		const struct mmf_report *r = &reps[i];
		size_t end;
		bool complete;

		if (oracle_report(r))
			continue;
		end = report_end(m, r->start, now_ms);
		complete = dead || quiet || end;
		if (complete) {
			enum mmf_finding_kind kind = r->start < m->ready_at ? MMF_FOUND_BOOT_CRASH :
									    MMF_FOUND_REPORT;

			/* Dead or silent, the console is whole: the parser's own end. */
			if (dead || quiet || !end) {
				found_report(f, kind, r);
				f->end = end ? end : m->log.len;
			} else {
				found_upto(m, f, kind, r, end);
			}
		}
		mmf_reports_free(reps, n);
		return complete;
	}
	if (n > 0)
		mmf_reports_free(reps, n);
	if (dead && mmf_monitor_ready(m) && m->o.ended &&
	    strstr(m->log.buf + m->ready_at, m->o.ended)) {
		found(f, MMF_FOUND_END, "the fuzzer ended", NULL, false);
		return 1;
	}
	if (dead) {
		found(f, MMF_FOUND_LOST, "lost connection to test machine", NULL, false);
		return 1;
	}
	if (!mmf_monitor_ready(m) && now_ms - m->start_ms >= m->o.boot_ms) {
		found(f, MMF_FOUND_HANG, "no output from test machine (boot)", NULL, false);
		return 1;
	}
	if (mmf_monitor_ready(m) && now_ms - m->last_ms >= m->o.hang_ms) {
		found(f, MMF_FOUND_HANG, "no output from test machine", NULL, false);
		return 1;
	}
	return 0;
}

void mmf_finding_free(struct mmf_finding *f)
{
	free(f->title);
	free(f->report);
	for (int i = 0; i < f->nr_alt; i++)
		free(f->alt_titles[i]);
	free(f->alt_titles);
	memset(f, 0, sizeof(*f));
}
