// SPDX-License-Identifier: GPL-2.0
/*
 * The findings channel's records (store/wire.c): what is put is got back
 * whole, a part of a record asks for more at every length, and bytes that
 * are no record (a stray console line, a huge length) are refused.
 */
#include <string.h>

#include "store/wire.h"
#include "tap.h"
#include "util/util.h"

static void test_roundtrip(void)
{
	struct mmf_crash c = {
		.title = "DATA CORRUPTION: zeroed anon page after madvise(MADV_FREE)",
		.report = "expected: 0x11\nobserved: 0x00 at byte 0\n",
		.progs = "m0 = mmap(0, 4, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n",
	};
	struct mmf_wire_finding f;
	struct strbuf sb;
	size_t used = 0, one;
	char err[128];

	mmf_sb_init(&sb);
	mmf_wire_put(&sb, 7, &c);
	one = sb.len;
	c.title = "ACCOUNTING: Mlocked grew after the program exited";
	mmf_wire_put(&sb, 8, &c);
	for (size_t len = 0; len < one; len++)
		CHECK(mmf_wire_get(sb.buf, len, &used, &f, err, sizeof(err)) == 0,
		      "a part of %zu bytes", len);
	CHECK(mmf_wire_get(sb.buf, sb.len, &used, &f, err, sizeof(err)) == 1, "%s", err);
	CHECK(used == one && f.seq == 7, "used %zu seq %lu", used, f.seq);
	CHECK(!strcmp(f.title, "DATA CORRUPTION: zeroed anon page after madvise(MADV_FREE)") &&
	      !strcmp(f.report, c.report) && !strcmp(f.progs, c.progs) && !strcmp(f.log, ""),
	      "fields: '%s' '%s' '%s' '%s'", f.title, f.report, f.log, f.progs);
	mmf_wire_finding_free(&f);
	CHECK(mmf_wire_get(sb.buf + one, sb.len - one, &used, &f, err, sizeof(err)) == 1,
	      "the second: %s", err);
	CHECK(f.seq == 8 && !strcmp(f.title, c.title), "second: %lu %s", f.seq, f.title);
	mmf_wire_finding_free(&f);
	mmf_sb_free(&sb);
}

static void test_refused(void)
{
	static const char *const bad[] = {
		"mmfuzz: fuzzing natively\n",
		"mmfuzz-finding x 1 0 0 0\n",
		"mmfuzz-finding 1 1 0 0\n",
		"mmfuzz-finding 1 1 99999999999 0 0\n",
		"mmfuzz-finding 1 0 0 0 0\n",
		"mmfuzz-finding 1 3 0 0 0\na\0b",
	};
	static const size_t lens[] = { 0, 0, 0, 0, 0, 28 };
	struct mmf_wire_finding f;
	size_t used;
	char err[128];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		size_t len = lens[i] ? lens[i] : strlen(bad[i]);

		err[0] = '\0';
		CHECK(mmf_wire_get(bad[i], len, &used, &f, err, sizeof(err)) == -1,
		      "refused: %s", bad[i]);
		CHECK(err[0], "says why: %s", bad[i]);
	}
	/* A header that never ends is refused once it is longer than any. */
	{
		char junk[256];

		memset(junk, '1', sizeof(junk));
		memcpy(junk, "mmfuzz-finding ", 15);
		CHECK(mmf_wire_get(junk, sizeof(junk), &used, &f, err, sizeof(err)) == -1,
		      "endless header");
	}
}

static void test_ack(void)
{
	struct strbuf sb;
	unsigned long seq = 0;
	size_t used = 0;

	mmf_sb_init(&sb);
	mmf_wire_put_ack(&sb, 42);
	CHECK(mmf_wire_get_ack(sb.buf, sb.len - 1, &used, &seq) == 0, "part of an ack");
	CHECK(mmf_wire_get_ack(sb.buf, sb.len, &used, &seq) == 1 && seq == 42 &&
	      used == sb.len, "ack %lu", seq);
	CHECK(mmf_wire_get_ack("mmfuzz-finding 1\n", 17, &used, &seq) == -1, "not an ack");
	mmf_sb_free(&sb);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_roundtrip),
	TAP_TEST(test_refused),
	TAP_TEST(test_ack),
};

int main(void)
{
	return tap_run(tests);
}
