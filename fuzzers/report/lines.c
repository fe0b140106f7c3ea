// SPDX-License-Identifier: GPL-2.0
/*
 * Console line normalisation: split a log into lines and strip what the
 * console adds in front of each message, remembering who printed it.
 *
 *   [  123.456789] msg              context "console"
 *   [  123.456789][ T4242] msg      context "T4242" (CONFIG_PRINTK_CALLER)
 *   [  123.456789][   C1] msg       context "C1"
 *   <4>[  123.456789] msg           syslog level before the timestamp
 *   <4>msg                          syslog level only: context ""
 *   ** 5 printk messages dropped ** [  123.456789] msg
 *   user output[  123.456789] msg   a message amid a line of user space
 *
 * Lines keep their bytes (the log may hold anything, including invalid
 * UTF-8); NUL bytes become '?' so that every text is a C string, and a
 * trailing '\r' is dropped. Lines are cut at MAX_LINE bytes: printk never
 * prints longer ones, and regexes get slow on huge lines of user output.
 */
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

#define MAX_LINE 1024

static size_t skip_digits(const char *s, size_t i, size_t n)
{
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

/* "<4>" at s + i: index past it, or i. */
static size_t skip_level(const char *s, size_t i, size_t n)
{
	size_t j;

	if (i >= n || s[i] != '<')
		return i;
	j = skip_digits(s, i + 1, n);
	if (j == i + 1 || j >= n || s[j] != '>')
		return i;
	return j + 1;
}

/* "[  123.456789]" at s + i: index past it, or 0. */
static size_t skip_stamp(const char *s, size_t i, size_t n)
{
	size_t j;

	if (i >= n || s[i++] != '[')
		return 0;
	while (i < n && s[i] == ' ')
		i++;
	j = skip_digits(s, i, n);
	if (j == i || j >= n || s[j] != '.')
		return 0;
	i = skip_digits(s, j + 1, n);
	if (i == j + 1 || i >= n || s[i] != ']')
		return 0;
	return i + 1;
}

/* "[ T123]" or "[  C1]" at s + i: index past it and ctx filled, or 0. */
static size_t skip_caller(const char *s, size_t i, size_t n, char *ctx)
{
	size_t j;

	if (i >= n || s[i++] != '[')
		return 0;
	while (i < n && s[i] == ' ')
		i++;
	if (i >= n || (s[i] != 'T' && s[i] != 'C'))
		return 0;
	j = skip_digits(s, i + 1, n);
	if (j == i + 1 || j >= n || s[j] != ']' || j - i >= CTX_LEN)
		return 0;
	memcpy(ctx, s + i, j - i);
	ctx[j - i] = '\0';
	return j + 1;
}

/* Level, timestamp, caller and one space from s + i: prefix end or 0. */
static size_t skip_console(const char *s, size_t i, size_t n, char *ctx)
{
	size_t j = skip_stamp(s, skip_level(s, i, n), n), k;

	if (!j)
		return 0;
	strcpy(ctx, "console");
	k = skip_caller(s, j, n, ctx);
	if (!k) {
		strcpy(ctx, "console");
		k = j;
	}
	if (k >= n || s[k] != ' ')
		return 0;
	return k + 1;
}

static size_t skip_dropped(const char *s, size_t n)
{
	static const char tail[] = " printk messages dropped ** ";
	size_t j;

	if (n < 3 || memcmp(s, "** ", 3))
		return 0;
	j = skip_digits(s, 3, n);
	if (j == 3 || n - j < sizeof(tail) - 1 || memcmp(s + j, tail, sizeof(tail) - 1))
		return 0;
	return j + sizeof(tail) - 1;
}

/*
 * "[  123.456789]" at s + i has the six digits of microseconds printk
 * always prints: a stamp in the middle of a line is taken only then, as
 * stray brackets in user output rarely have them.
 */
static bool printk_stamp(const char *s, size_t i, size_t n)
{
	const char *dot = memchr(s + i, '.', n - i);
	const char *end = dot ? memchr(dot, ']', n - (dot - s)) : NULL;

	return end && end - dot == 7;
}

/*
 * Length of the console prefix of s[0, n), filling ctx, and *at where its
 * stamp starts. printk and user space share the console: a kernel message
 * can start in the middle of a line of user output, or after a getty
 * prompt that swallowed the line's start. Its stamp is then the first one
 * in the line, and what comes before it is not the kernel's.
 */
static size_t console_prefix(const char *s, size_t n, char *ctx, size_t *at)
{
	size_t p = skip_dropped(s, n), q = skip_console(s, p, n, ctx);
	const char *b;

	for (*at = p; !q && *at + 1 < n && (b = memchr(s + *at + 1, '[', n - *at - 1));) {
		*at = b - s;
		q = printk_stamp(s, *at, n) ? skip_console(s, *at, n, ctx) : 0;
	}
	if (q)
		return q;
	ctx[0] = '\0';
	return skip_level(s, 0, n);
}

const char *mmf_console_message(const char *line, size_t n, double *secs, char ctx[16])
{
	size_t at, pre = console_prefix(line, n, ctx, &at);
	const char *b;

	if (!ctx[0])
		return NULL;
	b = memchr(line + at, '[', n - at);
	*secs = strtod(b + 1, NULL);
	return line + pre;
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t m = strlen(suffix);

	return n >= m && !memcmp(s + n - m, suffix, m);
}

/*
 * The unwinder marks frames it is unsure about with "? "; they are often
 * stale stack contents, so reports ignore them unless they are the only
 * thing there is.
 */
static bool is_questionable(const char *s, size_t n)
{
	if (memmem(s, n, "<EOI>", 5))
		return false;
	return memmem(s, n, " ? ", 3) || ends_with(s, n, " (unreliable)");
}

void mmf_console_split(struct console *con, const char *log, size_t len)
{
	size_t cap = 0;
	char *buf = mmf_xmalloc(len + 1);

	if (len)
		memcpy(buf, log, len);
	buf[len] = '\0';
	for (size_t i = 0; i < len; i++)
		if (!buf[i])
			buf[i] = '?';
	con->buf = buf;
	con->lines = NULL;
	con->n = 0;
	for (size_t off = 0; off < len;) {
		char *nl = memchr(buf + off, '\n', len - off);
		size_t end = nl ? (size_t)(nl - buf) : len;
		size_t tend = end, pre, at;
		struct cline *l;

		if (con->n == cap) {
			cap = cap ? cap * 2 : 256;
			con->lines = mmf_xrealloc(con->lines, cap * sizeof(*con->lines));
		}
		l = &con->lines[con->n++];
		buf[end] = '\0';
		if (tend > off && buf[tend - 1] == '\r')
			buf[--tend] = '\0';
		if (tend - off > MAX_LINE) {
			tend = off + MAX_LINE;
			buf[tend] = '\0';
		}
		l->off = off;
		l->next = nl ? end + 1 : len;
		pre = console_prefix(buf + off, tend - off, l->ctx, &at);
		l->text = off + pre;
		l->len = tend - off - pre;
		l->questionable = l->ctx[0] && is_questionable(buf + l->text, l->len);
		l->oops = -1;
		off = l->next;
	}
}

void mmf_console_free(struct console *con)
{
	free(con->buf);
	free(con->lines);
	con->buf = NULL;
	con->lines = NULL;
	con->n = 0;
}
