// SPDX-License-Identifier: GPL-2.0
/*
 * Title normalisation: addresses, numbers, line numbers, pids and the like
 * differ between two hits of the same bug, so they become placeholders.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "report/internal.h"

/*
 * Applied in order, each until the title stops changing: one pass leaves
 * every other number of "0,1,2" alone. No regex here matches "".
 */
static const struct {
	const char *re, *repl;
} title_replacements[] = {
	{ "syz-executor\\.?[0-9]+(?:(?:/|:)[0-9]+)?", "syz-executor" },
	{ "syzkaller[0-9]+(?:(?:/|:)[0-9]+)?", "syzkaller" },
	{ "([^a-zA-Z0-9])(?:0x)?[0-9a-f]{6,}", "$1ADDR" },
	{ "[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}", "IP" },
	{ "(\\.[0-9A-Za-z_]+)(?::[0-9]+)+", "$1:LINE" },
	{ "([a-zA-Z][a-zA-Z0-9_.]+)\\+0x[0-9a-z]+/0x[0-9a-z]+", "$1" },
	{ "CPU#[0-9]+", "CPU" },
	{ "([^0-9A-Za-z_])[0-9]+([^0-9A-Za-z_]|$)", "$1NUM$2" },
	/* digits inside identifiers (nl80211) stay, unless that many */
	{ "[0-9]{7,}", "NUM" },
};

static char *replace_once(const char *re, const char *repl, const char *s)
{
	size_t len = strlen(s), pos = 0;
	struct rx_match m;
	struct strbuf sb;

	mmf_sb_init(&sb);
	while (pos < len && mmf_rx_find(re, s, pos, len, &m)) {
		mmf_sb_add(&sb, s + pos, m.so - pos);
		for (const char *r = repl; *r; r++) {
			int i = r[0] == '$' && isdigit((unsigned char)r[1]) ? r[1] - '1' : -1;

			if (i < 0) {
				mmf_sb_add(&sb, r, 1);
				continue;
			}
			if (i < m.ncap && m.cso[i] >= 0)
				mmf_sb_add(&sb, s + m.cso[i], m.ceo[i] - m.cso[i]);
			r++;
		}
		pos = m.eo;
	}
	if (pos < len)
		mmf_sb_add(&sb, s + pos, len - pos);
	return mmf_sb_detach(&sb);
}

char *mmf_sanitize_title(const char *title)
{
	enum { MAX_TITLE = 120 };	/* interleaved lines can be endless */
	char *s = mmf_xstrdup(title), *out;
	size_t n = 0;
	char prev = ' ';

	for (size_t i = 0; i < ARRAY_SIZE(title_replacements); i++) {
		for (;;) {
			char *t = replace_once(title_replacements[i].re,
					       title_replacements[i].repl, s);
			bool same = !strcmp(s, t);

			free(s);
			s = t;
			if (same)
				break;
		}
	}
	out = mmf_xmalloc(MAX_TITLE + 1);
	for (size_t i = 0; s[i] && i < MAX_TITLE; i++) {
		unsigned char c = s[i];

		if (c == '\t')
			c = ' ';
		else if (c < 0x20 || c >= 0x7f)
			continue;
		if (c == ' ' && prev == ' ')
			continue;
		out[n++] = c;
		prev = c;
	}
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
	free(s);
	return out;
}
