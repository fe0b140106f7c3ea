// SPDX-License-Identifier: GPL-2.0
/* Reports as JSON objects, one per line, for scripts and the dashboard. */
#include <stdint.h>
#include <string.h>

#include "report/report.h"

/* Length of the valid UTF-8 sequence at s, 0 if there is none. */
static size_t utf8_len(const unsigned char *s)
{
	uint32_t cp;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates and beyond U+10FFFF are invalid too */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

static void json_str(struct strbuf *sb, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	sb_add(sb, "\"", 1);
	while (*s) {
		size_t n = utf8_len(s);

		if (!n) {
			sb_puts(sb, "\\ufffd");
			s++;
		} else if (*s == '"' || *s == '\\') {
			sb_printf(sb, "\\%c", *s++);
		} else if (*s == '\n') {
			sb_puts(sb, "\\n");
			s++;
		} else if (*s == '\t') {
			sb_puts(sb, "\\t");
			s++;
		} else if (*s < 0x20 || *s == 0x7f) {
			sb_printf(sb, "\\u%04x", *s++);
		} else {
			sb_add(sb, (const char *)s, n);
			s += n;
		}
	}
	sb_add(sb, "\"", 1);
}

void mmf_report_json(const struct mmf_report *r, const char *file, struct strbuf *sb)
{
	sb_puts(sb, "{");
	if (file) {
		sb_puts(sb, "\"file\":");
		json_str(sb, file);
		sb_puts(sb, ",");
	}
	sb_puts(sb, "\"title\":");
	json_str(sb, r->title);
	sb_puts(sb, ",\"alt_titles\":[");
	for (int i = 0; i < r->nr_alt; i++) {
		if (i)
			sb_puts(sb, ",");
		json_str(sb, r->alt_titles[i]);
	}
	sb_puts(sb, "],\"type\":");
	json_str(sb, r->type);
	sb_puts(sb, ",\"frame\":");
	if (r->frame)
		json_str(sb, r->frame);
	else
		sb_puts(sb, "null");
	sb_printf(sb, ",\"corrupted\":%s,\"start\":%zu,\"end\":%zu,\"text\":",
		  r->corrupted ? "true" : "false", r->start, r->end);
	json_str(sb, r->text);
	sb_puts(sb, "}");
}
