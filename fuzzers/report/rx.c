// SPDX-License-Identifier: GPL-2.0
/*
 * Regexes for the report tables. Tables hold pattern strings; each is
 * compiled the first time it is used and kept, keyed by the pattern's
 * address, so the tables themselves stay const.
 */
#include <pthread.h>
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

#define RX_BUCKETS 256
#define RX_MAXGROUPS 32

struct rx {
	const char *key;
	regex_t re;
	int ncap;
	unsigned char group[RX_MAXCAP];	/* capture i is regex group group[i] */
	struct rx *next;
};

static struct rx *rx_cache[RX_BUCKETS];
static pthread_mutex_t rx_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct {
	const char *name;
	const char *re;
} rx_macros[] = {
	{ "{{PC}}", "\\[<?(?:0x)?[0-9a-f]+>?\\]" },
	{ "{{FUNC}}", "([a-zA-Z0-9_]+)(?:\\.|\\+)" },
	{ "{{SRC}}", "([-a-zA-Z0-9_/.]+\\.[a-z]+:[0-9]+)" },
};

static void expand_macros(const char *pat, struct strbuf *out)
{
	while (*pat) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(rx_macros); i++) {
			size_t n = strlen(rx_macros[i].name);

			if (!strncmp(pat, rx_macros[i].name, n)) {
				mmf_sb_puts(out, rx_macros[i].re);
				pat += n;
				break;
			}
		}
		if (i == ARRAY_SIZE(rx_macros))
			mmf_sb_add(out, pat++, 1);
	}
}

/* Length of the bracket expression at s ('[' ... ']'). */
static size_t bracket_len(const char *s)
{
	size_t i = 1;

	if (s[i] == '^')
		i++;
	if (s[i] == ']')
		i++;
	while (s[i] && s[i] != ']') {
		if (s[i] == '[' && (s[i + 1] == ':' || s[i + 1] == '.' || s[i + 1] == '=')) {
			const char *end = strchr(s + i + 2, s[i + 1]);

			i = end ? (size_t)(end - s) + 2 : i + 1;
			continue;
		}
		i++;
	}
	return s[i] ? i + 1 : i;
}

/*
 * POSIX has no "(?:", so turn those into plain groups and remember which
 * groups the pattern's author meant to capture.
 */
static void strip_noncapturing(struct rx *rx, const char *pat, struct strbuf *out)
{
	int groups = 0;

	while (*pat) {
		if (*pat == '\\' && pat[1]) {
			mmf_sb_add(out, pat, 2);
			pat += 2;
		} else if (*pat == '[') {
			size_t n = bracket_len(pat);

			mmf_sb_add(out, pat, n);
			pat += n;
		} else if (*pat == '(') {
			if (++groups >= RX_MAXGROUPS)
				mmf_die("report: too many groups in /%s/", rx->key);
			mmf_sb_add(out, pat++, 1);
			if (pat[0] == '?' && pat[1] == ':') {
				pat += 2;
				continue;
			}
			if (rx->ncap == RX_MAXCAP)
				mmf_die("report: too many captures in /%s/", rx->key);
			rx->group[rx->ncap++] = groups;
		} else {
			mmf_sb_add(out, pat++, 1);
		}
	}
}

static struct rx *rx_compile(const char *pattern)
{
	struct rx *rx = mmf_xcalloc(1, sizeof(*rx));
	struct strbuf expanded, posix;
	int flags = REG_EXTENDED | REG_NEWLINE, err;

	rx->key = pattern;
	if (!strncmp(pattern, "(?i)", 4)) {
		flags |= REG_ICASE;
		pattern += 4;
	}
	mmf_sb_init(&expanded);
	mmf_sb_init(&posix);
	expand_macros(pattern, &expanded);
	mmf_sb_add(&expanded, "", 0);
	strip_noncapturing(rx, expanded.buf, &posix);
	mmf_sb_add(&posix, "", 0);
	err = regcomp(&rx->re, posix.buf, flags);
	if (err) {
		char msg[128];

		regerror(err, &rx->re, msg, sizeof(msg));
		mmf_die("report: bad regex /%s/: %s", posix.buf, msg);
	}
	mmf_sb_free(&expanded);
	mmf_sb_free(&posix);
	return rx;
}

static const struct rx *rx_get(const char *pattern)
{
	size_t h = ((uintptr_t)pattern >> 3) % RX_BUCKETS;
	struct rx *rx;

	pthread_mutex_lock(&rx_lock);
	for (rx = rx_cache[h]; rx; rx = rx->next)
		if (rx->key == pattern)
			break;
	if (!rx) {
		rx = rx_compile(pattern);
		rx->next = rx_cache[h];
		rx_cache[h] = rx;
	}
	pthread_mutex_unlock(&rx_lock);
	return rx;
}

bool mmf_rx_find(const char *pattern, const char *text, size_t from, size_t to,
	     struct rx_match *m)
{
	const struct rx *rx = rx_get(pattern);
	regmatch_t pm[RX_MAXGROUPS + 1];

	/* REG_STARTEND lets the range hold NULs and makes it a string of its own. */
	pm[0].rm_so = 0;
	pm[0].rm_eo = to - from;
	if (regexec(&rx->re, text + from, RX_MAXGROUPS + 1, pm, REG_STARTEND))
		return false;
	if (!m)
		return true;
	m->so = from + pm[0].rm_so;
	m->eo = from + pm[0].rm_eo;
	m->ncap = rx->ncap;
	for (int i = 0; i < rx->ncap; i++) {
		const regmatch_t *g = &pm[rx->group[i]];

		m->cso[i] = g->rm_so < 0 ? -1 : (long)from + g->rm_so;
		m->ceo[i] = g->rm_so < 0 ? -1 : (long)from + g->rm_eo;
	}
	return true;
}
