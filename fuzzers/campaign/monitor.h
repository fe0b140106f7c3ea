/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Live console monitor of one guest: fed the console as it arrives, it
 * tells when a kernel report is complete (at its real end: the end-trace
 * line, the next line of user space outside a stack dump, the next burst
 * of kernel lines, a bound in lines; else the guest's death or silence),
 * whether it came before the fuzzer started (a boot crash, not a finding),
 * when the guest went silent for too long (a hang) and when it died
 * without a report. The reports of mmfuzz's own oracles are not its
 * business: they come on the findings channel.
 *
 * Pure: text and times in, findings out; the campaign does the I/O.
 */
#ifndef MMF_MONITOR_H
#define MMF_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mmf_monitor_opts {
	uint64_t settle_ms;	/* quiet time after a report before taking it */
	uint64_t hang_ms;	/* no output this long while fuzzing: a hang */
	uint64_t boot_ms;	/* no fuzzer start within this: a boot hang */
	const char *ready;	/* console line part that says the fuzzer runs */
	/* What the guest prints once its fuzzer has ended, before it powers off. */
	const char *ended;
};

enum mmf_finding_kind {
	MMF_FOUND_REPORT,	/* a kernel or oracle report while fuzzing */
	MMF_FOUND_BOOT_CRASH,	/* a report before the fuzzer started */
	MMF_FOUND_HANG,		/* no output for hang_ms (or boot_ms) */
	MMF_FOUND_LOST,		/* the guest died without a report */
	MMF_FOUND_END,		/* it died after its fuzzer ended: no finding */
};

struct mmf_finding {
	enum mmf_finding_kind kind;
	char *title;
	char *report;
	char **alt_titles;	/* the parser's other titles for it */
	int nr_alt;
	bool corrupted;
	size_t end;		/* console offset after the report's last line */
};

struct mmf_monitor;

struct mmf_monitor *mmf_monitor_new(const struct mmf_monitor_opts *o, uint64_t now_ms);
void mmf_monitor_free(struct mmf_monitor *m);

/* Console bytes as they arrive. */
void mmf_monitor_feed(struct mmf_monitor *m, const char *buf, size_t n, uint64_t now_ms);

/*
 * 1 and *f filled (free with mmf_finding_free) when there is a finding
 * now; dead says the guest has exited. After a finding the guest is to be
 * restarted with a new monitor.
 */
int mmf_monitor_poll(struct mmf_monitor *m, uint64_t now_ms, bool dead, struct mmf_finding *f);
void mmf_finding_free(struct mmf_finding *f);

/* The whole console so far. */
const char *mmf_monitor_log(const struct mmf_monitor *m, size_t *len);
bool mmf_monitor_ready(const struct mmf_monitor *m);
/* When the console byte before offset off arrived (now_ms of its feed). */
uint64_t mmf_monitor_time_at(const struct mmf_monitor *m, size_t off);

#endif
