// SPDX-License-Identifier: GPL-2.0
/*
 * A LAVA job log: one YAML flow mapping a line,
 *
 *   - {"dt": "2026-12-04T05:00:00.123456", "lvl": "target", "msg": "..."}
 *
 * (lava-run prints them without the "- "), every scalar double-quoted
 * (lava_common/log.py). The guest's console is in the "target" entries
 * ("feedback" after the test), a line each, with LAVA's changes to it: no
 * carriage returns or escape bytes, and a double quote as \" (its shell
 * logger does that before YAML quotes the line again).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "farm/farm.h"

/* UTF-8 of code point c. */
static void utf8(struct strbuf *sb, unsigned long c)
{
	char b[4];
	int n;

	if (c < 0x80) {
		b[0] = c;
		n = 1;
	} else if (c < 0x800) {
		b[0] = 0xc0 | c >> 6;
		b[1] = 0x80 | (c & 0x3f);
		n = 2;
	} else if (c < 0x10000) {
		b[0] = 0xe0 | c >> 12;
		b[1] = 0x80 | ((c >> 6) & 0x3f);
		b[2] = 0x80 | (c & 0x3f);
		n = 3;
	} else {
		b[0] = 0xf0 | c >> 18;
		b[1] = 0x80 | ((c >> 12) & 0x3f);
		b[2] = 0x80 | ((c >> 6) & 0x3f);
		b[3] = 0x80 | (c & 0x3f);
		n = 4;
	}
	mmf_sb_add(sb, b, n);
}

/*
 * A double-quoted YAML scalar at *p (its opening quote), decoded into sb
 * (NULL: skipped); *p moves past its closing quote. 0, or -1.
 */
static int dq_string(const char **p, const char *end, struct strbuf *sb)
{
	static const char simple[][2] = {
		{ '0', '\0' }, { 'a', '\a' }, { 'b', '\b' }, { 't', '\t' }, { '\t', '\t' },
		{ 'n', '\n' }, { 'v', '\v' }, { 'f', '\f' }, { 'r', '\r' }, { 'e', '\x1b' },
		{ ' ', ' ' }, { '"', '"' }, { '/', '/' }, { '\\', '\\' },
	};
	/* \xXX, \uXXXX, \UXXXXXXXX, and the named code points. */
	static const struct {
		char c;
		int digits;
		unsigned long code;
	} wide[] = {
		{ 'x', 2, 0 }, { 'u', 4, 0 }, { 'U', 8, 0 }, { 'N', 0, 0x85 }, { '_', 0, 0xa0 },
		{ 'L', 0, 0x2028 }, { 'P', 0, 0x2029 },
	};
	const char *s = *p + 1;

	while (s < end && *s != '"') {
		const char *e;
		int digits = 0;
		unsigned long c = 0;
		char hex[9];

		if (*s != '\\') {
			if (sb)
				mmf_sb_add(sb, s, 1);
			s++;
			continue;
		}
		if (++s >= end)
			return -1;
		for (size_t i = 0; i < ARRAY_SIZE(simple); i++)
			if (simple[i][0] == *s) {
				if (sb)
					mmf_sb_add(sb, &simple[i][1], 1);
				digits = -1;
				break;
			}
		if (digits < 0) {
			s++;
			continue;
		}
		for (size_t i = 0; i < ARRAY_SIZE(wide); i++)
			if (wide[i].c == *s) {
				digits = wide[i].digits;
				c = wide[i].code;
				break;
			}
		if (!digits && !c)
			return -1;
		if (digits) {
			if (end - s - 1 < digits)
				return -1;
			memcpy(hex, s + 1, digits);
			hex[digits] = '\0';
			c = strtoul(hex, (char **)&e, 16);
			if (e != hex + digits)
				return -1;
			s += digits;
		}
		if (sb)
			utf8(sb, c);
		s++;
	}
	if (s >= end)
		return -1;
	*p = s + 1;
	return 0;
}

/* A flow mapping's value that is a mapping: skipped, quotes and all. */
static int skip_map(const char **p, const char *end)
{
	const char *s = *p;
	int depth = 0;

	while (s < end) {
		if (*s == '"') {
			if (dq_string(&s, end, NULL))
				return -1;
			continue;
		}
		if (*s == '{' || *s == '[')
			depth++;
		else if ((*s == '}' || *s == ']') && !--depth) {
			*p = s + 1;
			return 0;
		}
		s++;
	}
	return -1;
}

/* "2026-12-04T05:00:00.123456" in ms since the epoch; 0 if it is none. */
static uint64_t dt_ms(const char *s)
{
	struct tm tm = { 0 };
	double sec = 0;

	if (sscanf(s, "%d-%d-%dT%d:%d:%lf", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
		   &tm.tm_min, &sec) != 6 || tm.tm_year < 1970 || tm.tm_year > 9999 ||
	    tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 ||
	    tm.tm_hour < 0 || tm.tm_hour > 23 || tm.tm_min < 0 || tm.tm_min > 59 ||
	    !(sec >= 0 && sec < 61))
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon--;
	tm.tm_sec = (int)sec;
	return (uint64_t)timegm(&tm) * 1000 + (uint64_t)((sec - tm.tm_sec) * 1000);
}

struct entry {
	struct strbuf dt, lvl, msg;
	const char *map, *map_end;	/* msg when it is a mapping */
};

/* One log line "- {...}" (lava-run prints "{...}"): 0 and e, or -1. */
static int entry(const char *s, const char *end, struct entry *e)
{
	if (end - s >= 2 && !memcmp(s, "- ", 2))
		s += 2;
	if (end - s < 2 || *s != '{' || end[-1] != '}')
		return -1;
	s++;
	while (s < end && *s != '}') {
		struct strbuf key, *val;

		mmf_sb_init(&key);
		if (*s != '"' || dq_string(&s, end, &key) || end - s < 2 || memcmp(s, ": ", 2)) {
			mmf_sb_free(&key);
			return -1;
		}
		s += 2;
		val = !key.buf ? NULL : !strcmp(key.buf, "dt") ? &e->dt :
			!strcmp(key.buf, "lvl") ? &e->lvl : !strcmp(key.buf, "msg") ? &e->msg : NULL;
		mmf_sb_free(&key);
		if (*s == '"') {
			if (dq_string(&s, end, val))
				return -1;
		} else if (*s == '{' || *s == '[') {
			e->map = s;
			if (skip_map(&s, end))
				return -1;
			e->map_end = s;
		} else {
			return -1;
		}
		if (s < end && *s == ',')
			s += s + 1 < end && s[1] == ' ' ? 2 : 1;
	}
	return s + 1 == end ? 0 : -1;
}

static void add_line(struct mmf_lava_log *l, const char *s, size_t len, uint64_t ms)
{
	mmf_sb_add(&l->console, s, len);
	mmf_sb_puts(&l->console, "\n");
	l->ends = mmf_xrealloc(l->ends, (l->nr + 1) * sizeof(*l->ends));
	l->ms = mmf_xrealloc(l->ms, (l->nr + 1) * sizeof(*l->ms));
	l->ends[l->nr] = l->console.len;
	l->ms[l->nr++] = ms;
}

/* The console line LAVA had before it quoted \" (see above). */
static void add_target(struct mmf_lava_log *l, const struct strbuf *msg, uint64_t ms)
{
	struct strbuf line;
	const char *s = msg->buf ? msg->buf : "";

	mmf_sb_init(&line);
	for (; *s; s++)
		if (!(s[0] == '\\' && s[1] == '"'))
			mmf_sb_add(&line, s, 1);
	add_line(l, line.buf ? line.buf : "", line.len, ms);
	mmf_sb_free(&line);
}

/* The job's result entry: {"case": "job", "definition": "lava", "result": "pass", ...}. */
static void job_result(struct mmf_lava_log *l, const struct entry *e)
{
	size_t len = e->map_end - e->map;
	const char *r;

	if (!memmem(e->map, len, "\"case\": \"job\"", 13) ||
	    !memmem(e->map, len, "\"definition\": \"lava\"", 20))
		return;
	r = memmem(e->map, len, "\"result\": \"", 11);
	if (r)
		sscanf(r + 11, "%63[a-z_]", l->result);
}

int mmf_lava_log_parse(const char *buf, size_t len, struct mmf_lava_log *l, char *err,
		       size_t n)
{
	const char *end = buf + len, *s = buf;
	uint64_t first = 0;
	char typed[64] = "";
	int nr = 0;

	memset(l, 0, sizeof(*l));
	mmf_sb_init(&l->console);
	while (s < end && (*s == '\n' || *s == '\r'))
		s++;
	l->lava = (end - s >= 3 && !memcmp(s, "- {", 3)) ||
		  (end - s >= 7 && !memcmp(s, "{\"dt\": ", 7));
	if (!l->lava && memchr(buf, '\0', len)) {
		snprintf(err, n, "neither a LAVA job log nor a console log (a NUL byte)");
		return -1;
	}
	for (s = buf; s < end; nr++) {
		const char *nl = memchr(s, '\n', end - s), *le = nl ? nl : end;
		struct entry e = { 0 };
		uint64_t ms;

		if (!l->lava) {
			add_line(l, s, le - s, 0);
			s = nl ? nl + 1 : end;
			continue;
		}
		if (le == s || (le - s == 3 && !memcmp(s, "---", 3))) {
			s = nl ? nl + 1 : end;
			continue;
		}
		mmf_sb_init(&e.dt);
		mmf_sb_init(&e.lvl);
		mmf_sb_init(&e.msg);
		if (entry(s, le, &e) || !e.dt.buf || !e.lvl.buf) {
			snprintf(err, n, "line %d is no LAVA log entry%s: '%.*s'", nr + 1,
				 nl ? "" : " (the log cut short?)", (int)MIN(le - s, 40), s);
			mmf_sb_free(&e.dt);
			mmf_sb_free(&e.lvl);
			mmf_sb_free(&e.msg);
			mmf_lava_log_free(l);
			return -1;
		}
		ms = dt_ms(e.dt.buf);
		if (!first)
			first = ms;
		ms = ms >= first ? ms - first : 0;
		l->end_ms = MAX(l->end_ms, ms);
		/* After the test, LAVA logs the console as feedback. */
		if ((!strcmp(e.lvl.buf, "target") || !strcmp(e.lvl.buf, "feedback")) && !e.map)
			add_target(l, &e.msg, ms);
		/* The echo of what LAVA typed (its power-off) is not the guest's. */
		if (!strcmp(e.lvl.buf, "input") && !e.map) {
			snprintf(typed, sizeof(typed), "%s", e.msg.buf ? e.msg.buf : "");
			typed[strcspn(typed, "\r\n")] = '\0';
		} else if (!strcmp(e.lvl.buf, "target") && !e.map &&
			   (!typed[0] || strcmp(e.msg.buf ? e.msg.buf : "", typed))) {
			l->target_ms = ms;
		} else if (!strcmp(e.lvl.buf, "results") && e.map) {
			job_result(l, &e);
		}
		mmf_sb_free(&e.dt);
		mmf_sb_free(&e.lvl);
		mmf_sb_free(&e.msg);
		s = nl ? nl + 1 : end;
	}
	return 0;
}

void mmf_lava_log_free(struct mmf_lava_log *l)
{
	mmf_sb_free(&l->console);
	free(l->ends);
	free(l->ms);
	memset(l, 0, sizeof(*l));
}
