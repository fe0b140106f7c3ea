// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel report parser (report/): mmf_report_parse() on the input as
 * a console log (not NUL-terminated), the promises of report.h checked on
 * each report, and its JSON, which must be valid UTF-8 without raw control
 * bytes whatever the log held.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "report/report.h"
#include "util/util.h"

/* Strict UTF-8: no overlong forms, surrogates or code points past U+10FFFF. */
static bool utf8_valid(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned char c = s[i];
		uint32_t cp;
		size_t k;

		if (c < 0x80) {
			i++;
			continue;
		}
		if ((c & 0xe0) == 0xc0)
			k = 2, cp = c & 0x1f;
		else if ((c & 0xf0) == 0xe0)
			k = 3, cp = c & 0x0f;
		else if ((c & 0xf8) == 0xf0)
			k = 4, cp = c & 0x07;
		else
			return false;
		if (n - i < k)
			return false;
		for (size_t j = 1; j < k; j++) {
			if ((s[i + j] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + j] & 0x3f);
		}
		if ((k == 2 && cp < 0x80) || (k == 3 && cp < 0x800) || (k == 4 && cp < 0x10000) ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
			return false;
		i += k;
	}
	return true;
}

static void check_json(const struct mmf_report *r, int i)
{
	struct strbuf sb;

	mmf_sb_init(&sb);
	mmf_report_json(r, i & 1 ? "console.log" : NULL, &sb);
	FUZZ_CHECK(sb.len && sb.buf[0] == '{' && sb.buf[sb.len - 1] == '}',
		   "report %d: JSON is no object", i);
	FUZZ_CHECK(strlen(sb.buf) == sb.len, "report %d: NUL byte in JSON", i);
	FUZZ_CHECK(utf8_valid((const unsigned char *)sb.buf, sb.len),
		   "report %d: JSON is not valid UTF-8", i);
	for (size_t k = 0; k < sb.len; k++)
		FUZZ_CHECK((unsigned char)sb.buf[k] >= 0x20,
			   "report %d: raw control byte 0x%02x in JSON", i, sb.buf[k]);
	mmf_sb_free(&sb);
}

void fuzz_one(const uint8_t *buf, size_t len)
{
	struct mmf_report *r = NULL;
	int n = mmf_report_parse((const char *)buf, len, &r);

	FUZZ_CHECK(n >= 0, "parse returned %d", n);
	FUZZ_CHECK(!n == !r, "%d reports, array %p", n, (void *)r);
	for (int i = 0; i < n; i++) {
		FUZZ_CHECK(r[i].title && r[i].type && r[i].text,
			   "report %d: title, type or text is NULL", i);
		FUZZ_CHECK(r[i].nr_alt >= 0 && (!r[i].nr_alt || r[i].alt_titles),
			   "report %d: %d alt titles", i, r[i].nr_alt);
		for (int k = 0; k < r[i].nr_alt; k++)
			FUZZ_CHECK(r[i].alt_titles[k], "report %d: alt title %d is NULL", i, k);
		FUZZ_CHECK(r[i].start <= r[i].end && r[i].end <= len,
			   "report %d: start %zu, end %zu of %zu bytes", i, r[i].start, r[i].end,
			   len);
		FUZZ_CHECK(!r[i].start || buf[r[i].start - 1] == '\n',
			   "report %d: start %zu is no line's start", i, r[i].start);
		/* in the order of the log */
		FUZZ_CHECK(!i || r[i - 1].start <= r[i].start,
			   "report %d starts at %zu, before report %d at %zu", i, r[i].start,
			   i - 1, r[i - 1].start);
		check_json(&r[i], i);
	}
	if (n)
		mmf_reports_free(r, n);
}
