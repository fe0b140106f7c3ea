/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel report parser: finds oopses, sanitizer reports, WARNINGs, lockdep
 * splats, hangs and stalls, and mmfuzz's own "DATA CORRUPTION:" and
 * "ACCOUNTING:" lines in console output, and names each the way syzkaller
 * would, so that duplicates get the same title.
 *
 * Pure text in, reports out: no I/O, no global state but a cache of
 * compiled regexes, safe to call from several threads.
 */
#ifndef MMF_REPORT_H
#define MMF_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "util/util.h"

struct mmf_report {
	/* e.g. "KASAN: use-after-free Read in swap_cache_free_entries" */
	char *title;
	/* other titles syzkaller gives the same bug, e.g. "bad-access in foo" */
	char **alt_titles;
	int nr_alt;
	/* static string: KASAN-USE-AFTER-FREE-READ, WARNING, HANG, LOCKDEP, ... */
	const char *type;
	/* guilty function, the one the title names; NULL if none */
	char *frame;
	/*
	 * The report's console lines without timestamps and caller ids,
	 * preceded by up to 5 lines (50 with caller ids) of the same context
	 * printed just before it.
	 */
	char *text;
	/* truncated, interleaved with other output, or missing its stack */
	bool corrupted;
	/*
	 * Input offsets: start of the line that opened the report, end of its
	 * last line. Without caller ids a report ends where the next one
	 * starts; with them, other tasks' lines and reports can lie between
	 * start and end. A report that reaches the end of the input
	 * (end == len) may still grow as more console output comes.
	 */
	size_t start, end;
};

/*
 * Find every report in a console log, first first. Returns their number
 * (0 if none); *out is then an array to free with mmf_reports_free(), or
 * NULL when there is none. log need not be NUL-terminated nor valid text.
 */
int mmf_report_parse(const char *log, size_t len, struct mmf_report **out);
void mmf_reports_free(struct mmf_report *r, int n);

/*
 * The kernel's message in one console line of n bytes: its text after the
 * timestamp and caller id, with *secs the stamp and ctx who printed it
 * ("T12", "C3", "console" without caller ids); NULL for a line of user
 * space. The one reading of console prefixes, the parser's own.
 */
const char *mmf_console_message(const char *line, size_t n, double *secs, char ctx[16]);

/*
 * Append the report as one JSON object with all its fields, plus "file"
 * if file is not NULL. Invalid UTF-8 is replaced, so the output is valid.
 */
void mmf_report_json(const struct mmf_report *r, const char *file, struct strbuf *sb);

#endif
