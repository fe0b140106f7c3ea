// SPDX-License-Identifier: GPL-2.0
/*
 * The small helpers every layer uses: the one-line escape that carries a
 * report's text over a serving guest's control channel (no newline is
 * left, every text comes back whole), MIN/MAX and the suffix test.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "util/util.h"

static void test_escape(void)
{
	static const char *const texts[] = { "", "one line", "BUG: x\n  at y\\z\n", "\\n is not a newline",
				"\n\n\\\\" };

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		struct strbuf sb;
		char *back;

		mmf_sb_init(&sb);
		mmf_sb_escaped_line(&sb, texts[i]);
		CHECK(!sb.buf || !strchr(sb.buf, '\n'), "a newline left in '%s'", sb.buf);
		back = mmf_unescape_line(sb.buf ? sb.buf : "");
		CHECK(!strcmp(back, texts[i]), "'%s' came back as '%s'", texts[i], back);
		free(back);
		mmf_sb_free(&sb);
	}
}

static int draws;

static int draw(int v)
{
	draws++;
	return v;
}

/* One evaluation each: a second draw was what the uring stressor returned. */
static void test_minmax(void)
{
	int left = 13;

	draws = 0;
	CHECK(MIN(left, draw(5)) == 5 && draws == 1, "MIN: %d draws", draws);
	CHECK(MAX(draw(1), MIN(left, draw(32))) == 13 && draws == 3, "MAX: %d draws", draws);
	CHECK(MIN(-1, 2) == -1 && MAX(-1L, 2) == 2, "signed");
}

/* A name that is only the suffix has none: ".prog" is no program file. */
static void test_suffix(void)
{
	CHECK(mmf_has_suffix("repro.1.prog", ".prog"), "repro.1.prog");
	CHECK(!mmf_has_suffix(".prog", ".prog"), ".prog alone");
	CHECK(!mmf_has_suffix("repro.c", ".prog") && !mmf_has_suffix("g", ".prog"), "others");
}

static void test_hex(void)
{
	const uint8_t in[] = { 0x00, 0x2a, 0xff, 0x10 };
	uint8_t out[4];
	char hex[9];

	mmf_hex_put(hex, in, sizeof(in));
	CHECK(!strcmp(hex, "002aff10"), "bytes to hex: %s", hex);
	CHECK(mmf_hex_get(hex, out, sizeof(out)) && !memcmp(in, out, sizeof(in)), "and back");
	CHECK(!mmf_hex_get("00z1", out, 2), "not hex");
	CHECK(!mmf_hex_get("0", out, 1), "cut short");
}

static const struct tap_test tests[] = {
	TAP_TEST(test_hex),
	TAP_TEST(test_escape),
	TAP_TEST(test_minmax),
	TAP_TEST(test_suffix),
};

int main(void)
{
	return tap_run(tests);
}
