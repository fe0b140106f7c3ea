/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared between the report parser's files, not part of its API.
 *
 * Data flow: lines.c splits a console log into normalised lines,
 * parse.c picks the lines of one report and asks title.c to match the
 * report text against the oopses table (oops.c); title.c uses frames.c to
 * find the guilty frame and types.c to classify the title.
 */
#ifndef MMF_REPORT_INTERNAL_H
#define MMF_REPORT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "util/util.h"

/* End of the line at text + pos: its '\n' or len. */
static inline size_t line_end(const char *text, size_t pos, size_t len)
{
	const char *nl = memchr(text + pos, '\n', len - pos);

	return nl ? (size_t)(nl - text) : len;
}

/*
 * rx.c: POSIX extended regexes, compiled on first use and cached for the
 * life of the process (thread-safe). Patterns may use non-capturing groups
 * "(?:...)" and the macros {{PC}} ("[<ffffffff81234567>]"), {{FUNC}} (a
 * function name followed by '+' or '.', captured) and {{SRC}} (a captured
 * "path/file.c:123"); a leading "(?i)" ignores case. Matching is done on
 * text[from, to) as if that range were a string of its own: '^' and '$'
 * match at its ends and, as patterns are compiled with REG_NEWLINE, around
 * the newlines within it. m may be NULL. The pattern's address is its
 * cache key: patterns are string constants, and a bad one is a bug that
 * mmf_die()s, so tests compile them all.
 */
#define RX_MAXCAP 8

struct rx_match {
	size_t so, eo;			/* whole match */
	int ncap;			/* capturing groups */
	long cso[RX_MAXCAP];		/* capture i, -1 if it did not take part */
	long ceo[RX_MAXCAP];
};

bool mmf_rx_find(const char *pattern, const char *text, size_t from, size_t to,
	     struct rx_match *m);

/* lines.c: one console line after normalisation. */
#define CTX_LEN 16

struct cline {
	size_t off;		/* where the line starts in the input */
	size_t next;		/* where the following line starts */
	size_t text;		/* normalised text: offset in console.buf */
	size_t len;
	char ctx[CTX_LEN];	/* "" none, "console" timestamp only, "T12"/"C3" */
	bool questionable;	/* "? func+0x" stack frame or "(unreliable)" */
	int oops;		/* index in mmf_oopses of the kind it starts, -1 */
};

struct console {
	char *buf;		/* the input, each line NUL-terminated */
	struct cline *lines;
	size_t n;
};

void mmf_console_split(struct console *con, const char *log, size_t len);
void mmf_console_free(struct console *con);
static inline const char *cline_text(const struct console *con, size_t i)
{
	return con->buf + con->lines[i].text;
}

/* oops.c: the table of report formats. */
enum stack_pick {
	PICK_FIRST,		/* first frame not skipped */
	PICK_STALL,		/* frame calling into a generic dispatcher */
	PICK_HANG,		/* frame a task waits in, bucketing rtnl/rcu waits */
};

#define STACK_MAXPARTS 4
/* Marks "parse a stack trace here" in stack_spec.parts. */
#define STACK "<stack>"

struct stack_spec {
	/*
	 * Parts are matched in order, each from where the previous stopped:
	 * a regex finds the next line matching it (its captures are frames),
	 * STACK collects frames until the next stack trace header. Each STACK
	 * after the first and the end of parts yield one guilty frame.
	 * parts2 is tried when parts found no frame.
	 */
	const char *parts[STACK_MAXPARTS + 1];
	const char *parts2[STACK_MAXPARTS + 1];
	const char *skip;	/* extra helper frames to skip (regex) */
	enum stack_pick pick;
};

#define OOPS_NO_STACK	0x1	/* a report without stack is not corrupted */
#define OOPS_CORRUPTED	0x2	/* matching this format means a cut report */
#define OOPS_FREE_TEXT	0x4	/* the title is a message naming no function */
#define OOPS_ALT_IF_NO_STACK	0x8	/* no stack: the first alt is the title */

#define FMT_MAXSTEPS 3
#define FMT_MAXALT 2

struct oops_fmt {
	const char *title;	/* regex over the report text */
	/*
	 * Optional: regexes that must match on successive later lines, the
	 * first anywhere; then their captures are the args, not the title's.
	 */
	const char *report[FMT_MAXSTEPS + 1];
	/* %1..%9: the captures (of report if given), then guilty frames */
	const char *fmt;
	const char *alt[FMT_MAXALT];
	const struct stack_spec *stack;
	unsigned int flags;
};

struct oops {
	const char *header;		/* literal on the line that starts it */
	const char *line_re;		/* optional: the line must match too */
	const struct oops_fmt *fmts;	/* ends with a NULL title */
	const char *const *ignore;	/* NULL-terminated: look-alike lines */
};

extern const struct oops mmf_oopses[];
extern const size_t mmf_nr_oopses;
/* Report lines that show up inside another report and do not start one. */
extern const char *const mmf_mid_report[];
/* Not bugs but print a stack: inside a report they mean mixed output. */
extern const char *const mmf_stack_dumpers[];

/* frames.c: stack traces and helper frames. */
extern const char *const mmf_stack_starts[];	/* NULL-terminated */
bool mmf_is_stack_start(const char *text, size_t from, size_t to);
bool mmf_is_frame_line(const char *text, size_t from, size_t to);

struct frame_list {
	char **raw;		/* as printed */
	char **canon;		/* syscall wrapper prefixes stripped */
	size_t n;
	bool ok;		/* frames found, no fault injection mixed in */
};

void mmf_extract_frames(const struct stack_spec *spec, const char *text,
		    size_t from, size_t to, struct frame_list *fl);
void mmf_frame_list_free(struct frame_list *fl);
/* Syscall wrapper prefixes of function names, NULL-terminated. */
extern const char *const mmf_syscall_prefixes[];

/* title.c: title of a report text, see struct mmf_report. */
struct title_result {
	char *title;
	char **alt;
	int nr_alt;
	bool corrupted;
	const struct oops_fmt *fmt;	/* NULL if no format matched */
};

void mmf_extract_title(const struct oops *oops, const char *text, size_t len,
		   struct title_result *res);
/* The function a title names, NULL if none. */
char *mmf_title_frame(const char *title);

/* sanitize.c: title without what differs between two hits of one bug. */
char *mmf_sanitize_title(const char *title);

/* types.c */
const char *mmf_title_type(const char *title);

/*
 * corrupted.c: whether a report is cut, mixed with other output or lacks
 * the stack trace its format needs. text[0, len) is the whole report,
 * text[0, titled) the part that was titled.
 */
bool mmf_report_corrupted(const struct title_result *tr, const char *text, size_t titled,
		      size_t len);

#endif
