// SPDX-License-Identifier: GPL-2.0
/*
 * The stress runner's heap canary: quiet while its memory holds, a zeroed
 * page (what the test hook does, as a kernel losing the page would) and a
 * changed word are reported with where and what, and it goes on clean.
 */
#include <string.h>

#include "stressors/canary.h"
#include "tap.h"

static void test_quiet(void)
{
	struct mmf_canary c;
	struct strbuf body;
	char title[128];

	mmf_sb_init(&body);
	mmf_canary_init(&c, 42);
	for (int i = 0; i < 3; i++)
		CHECK(!mmf_canary_check(&c, title, sizeof(title), &body), "%s", body.buf);
	CHECK(c.checks == 3, "%lu checks", c.checks);
	mmf_canary_free(&c);
	mmf_sb_free(&body);
}

static void test_zeroed_page(void)
{
	struct mmf_canary c;
	struct strbuf body;
	char title[128];

	mmf_sb_init(&body);
	mmf_canary_init(&c, 7);
	mmf_canary_zap(&c);
	CHECK(mmf_canary_check(&c, title, sizeof(title), &body), "a dropped page unseen");
	CHECK(!strcmp(title, "DATA CORRUPTION: zeroed words in the stress runner's heap"), "%s",
	      title);
	CHECK(strstr(body.buf, "words of the 64 KiB chunk") && strstr(body.buf, "to 0\n") &&
	      strstr(body.buf, "pagemap: "), "%s", body.buf);
	/* A page's worth of words, all of them zero. */
	CHECK(strstr(body.buf, "\n512 of 8192 words") || sysconf(_SC_PAGESIZE) != 4096, "%s",
	      body.buf);
	body.len = 0;
	CHECK(!mmf_canary_check(&c, title, sizeof(title), &body), "not filled again: %s", body.buf);
	mmf_canary_free(&c);
	mmf_sb_free(&body);
}

static void test_changed_word(void)
{
	struct mmf_canary c;
	struct strbuf body;
	char title[128];

	mmf_sb_init(&body);
	mmf_canary_init(&c, 7);
	c.chunk[5][100] ^= 0x100;
	CHECK(mmf_canary_check(&c, title, sizeof(title), &body), "a changed word unseen");
	CHECK(!strcmp(title, "DATA CORRUPTION: changed words in the stress runner's heap"), "%s",
	      title);
	CHECK(strstr(body.buf, "1 of 8192 words") && strstr(body.buf, ", 0 of them to 0"), "%s",
	      body.buf);
	mmf_canary_free(&c);
	mmf_sb_free(&body);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_quiet),
	TAP_TEST(test_zeroed_page),
	TAP_TEST(test_changed_word),
};

int main(void)
{
	return tap_run(tests);
}
