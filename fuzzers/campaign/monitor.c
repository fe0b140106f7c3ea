// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "campaign/monitor.h"
#include "report/report.h"
#include "util/util.h"

/* Output after a report's start that surely holds all of it. */
#define REPORT_SPAN	(256 << 10)

struct mmf_monitor {
	struct mmf_monitor_opts o;
	struct strbuf log;
	uint64_t start_ms, last_ms;
	size_t ready_at;	/* offset of the ready line, or SIZE_MAX */
	size_t scanned;		/* the ready line is searched from here */
};

struct mmf_monitor *mmf_monitor_new(const struct mmf_monitor_opts *o, uint64_t now_ms)
{
	struct mmf_monitor *m = xcalloc(1, sizeof(*m));

	m->o = *o;
	sb_init(&m->log);
	m->start_ms = m->last_ms = now_ms;
	m->ready_at = SIZE_MAX;
	return m;
}

void mmf_monitor_free(struct mmf_monitor *m)
{
	if (!m)
		return;
	sb_free(&m->log);
	free(m);
}

void mmf_monitor_feed(struct mmf_monitor *m, const char *buf, size_t n, uint64_t now_ms)
{
	if (!n)
		return;
	sb_add(&m->log, buf, n);
	m->last_ms = now_ms;
	if (m->ready_at == SIZE_MAX && m->o.ready) {
		/* Back up by the marker's length: it may straddle two feeds. */
		size_t from = m->scanned > strlen(m->o.ready) ? m->scanned - strlen(m->o.ready) : 0;
		char *hit = strstr(m->log.buf + from, m->o.ready);

		if (hit)
			m->ready_at = hit - m->log.buf;
		m->scanned = m->log.len;
	}
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

static void found(struct mmf_finding *f, enum mmf_finding_kind kind, const char *title,
		  const char *report, bool corrupted)
{
	f->kind = kind;
	f->title = xstrdup(title);
	f->report = xstrdup(report ? report : "");
	f->corrupted = corrupted;
}

int mmf_monitor_poll(struct mmf_monitor *m, uint64_t now_ms, bool dead, struct mmf_finding *f)
{
	struct mmf_report *reps = NULL;
	bool quiet = now_ms - m->last_ms >= m->o.settle_ms;
	int n = m->log.len ? mmf_report_parse(m->log.buf, m->log.len, &reps) : 0;

	memset(f, 0, sizeof(*f));
	if (n > 0) {
		/* The first report is the finding; later ones are its fallout. */
		const struct mmf_report *r = &reps[0];
		bool complete = dead || quiet || m->log.len - r->start >= REPORT_SPAN;

		if (complete)
			found(f, r->start < m->ready_at ? MMF_FOUND_BOOT_CRASH : MMF_FOUND_REPORT,
			      r->title, r->text, r->corrupted);
		mmf_reports_free(reps, n);
		return complete;
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
	memset(f, 0, sizeof(*f));
}
