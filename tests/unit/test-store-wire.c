// SPDX-License-Identifier: GPL-2.0
/*
 * The findings channel's records (store/wire.c): what is put is got back
 * whole, a part of a record asks for more at every length, and bytes that
 * are no record (a stray console line, a huge length) are refused. On a
 * console, as frame lines: back whole through time stamps, other lines,
 * any order and repeats; a damaged or missing frame is told, never taken.
 */
#include <string.h>

#include "store/wire.h"
#include "tap.h"
#include "util/codec.h"
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

static void test_codec(void)
{
	static const char *const plain[] = { "", "f", "fo", "foo", "foob", "fooba", "foobar" };
	static const char *const coded[] = {
		"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy",
	};
	static const char *const bad[] = { "Zg=", "Z===", "Zg=a", "Zm9v====", "Zm 9" };
	unsigned char out[16];

	for (size_t i = 0; i < ARRAY_SIZE(plain); i++) {
		struct strbuf sb;
		long n;

		mmf_sb_init(&sb);
		mmf_base64_put(&sb, plain[i], strlen(plain[i]));
		CHECK(!strcmp(sb.buf ? sb.buf : "", coded[i]), "'%s' as '%s'", plain[i], sb.buf);
		n = mmf_base64_get(coded[i], strlen(coded[i]), out);
		CHECK(n == (long)strlen(plain[i]) && !memcmp(out, plain[i], n), "'%s' back", coded[i]);
		mmf_sb_free(&sb);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		CHECK(mmf_base64_get(bad[i], strlen(bad[i]), out) == -1, "'%s' refused", bad[i]);
	/* The check value of CRC-32/ISO-HDLC. */
	CHECK(mmf_crc32("123456789", 9) == 0xcbf43926, "crc32 %08x", mmf_crc32("123456789", 9));
}

struct lines {
	char *v[64];
	int n;
};

static void keep(void *ctx, const char *line, size_t len)
{
	struct lines *l = ctx;

	CHECK(l->n < 64 && !memchr(line, '\n', len), "a frame line of its own");
	l->v[l->n++] = mmf_xasprintf("[   12.345678][  T321] %.*s", (int)len, line);
}

static void test_frames(void)
{
	struct strbuf report;
	struct lines l = { .n = 0 };
	struct mmf_crash c = {
		.title = "DATA CORRUPTION: stale anon page after swapoff",
		.progs = "m0 = mmap(0, 4, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n",
		.log = "\"quoted\" \\ \x1b[0m\r\n\ttabbed\n",
	};
	struct mmf_wire_frames *fr = mmf_wire_frames_new();
	struct mmf_wire_finding f;
	char err[256];

	mmf_sb_init(&report);
	for (int i = 0; i < 200; i++)
		mmf_sb_printf(&report, "page %d: expected 0x%02x, observed 0x00\n", i, i);
	c.report = report.buf;
	mmf_wire_put_frames(99, &c, keep, &l);
	CHECK(l.n > 3, "%d frames", l.n);
	/* Backwards, each twice, with the console's other lines between. */
	for (int i = l.n - 1; i >= 0; i--) {
		CHECK(mmf_wire_frames_line(fr, "mmfuzz: fuzzing natively", 24, err,
					   sizeof(err)) == 0, "not a frame");
		for (int k = 0; k < 2; k++)
			CHECK(mmf_wire_frames_line(fr, l.v[i], strlen(l.v[i]), err,
						   sizeof(err)) == 1, "frame %d: %s", i, err);
	}
	CHECK(mmf_wire_frames_count(fr) == 1, "one record");
	CHECK(mmf_wire_frames_get(fr, 0, &f, err, sizeof(err)) == 1, "%s", err);
	CHECK(f.seq == 99 && !strcmp(f.title, c.title) && !strcmp(f.report, c.report) &&
	      !strcmp(f.log, c.log) && !strcmp(f.progs, c.progs), "fields back whole");
	mmf_wire_finding_free(&f);
	mmf_wire_frames_free(fr);

	/* One frame missing: told, not taken. */
	fr = mmf_wire_frames_new();
	for (int i = 0; i < l.n; i++)
		if (i != 2)
			mmf_wire_frames_line(fr, l.v[i], strlen(l.v[i]), err, sizeof(err));
	CHECK(mmf_wire_frames_get(fr, 0, &f, err, sizeof(err)) == 0 &&
	      strstr(err, "the first 3"), "missing: %s", err);
	mmf_wire_frames_free(fr);

	/* A byte changed, or a line cut: refused. */
	fr = mmf_wire_frames_new();
	{
		char *bad = mmf_xstrdup(l.v[1]);
		size_t len = strlen(bad);

		bad[len - 5] = bad[len - 5] == 'A' ? 'B' : 'A';
		CHECK(mmf_wire_frames_line(fr, bad, len, err, sizeof(err)) == -1 &&
		      strstr(err, "CRC"), "changed: %s", err);
		CHECK(mmf_wire_frames_line(fr, bad, len - 3, err, sizeof(err)) == -1, "cut");
		CHECK(mmf_wire_frames_line(fr, "mmfuzz-frame 1 2 1 0 QQ==", 25, err,
					   sizeof(err)) == -1, "part 2 of 1: %s", err);
		free(bad);
	}
	mmf_wire_frames_free(fr);
	for (int i = 0; i < l.n; i++)
		free(l.v[i]);
	mmf_sb_free(&report);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_roundtrip),
	TAP_TEST(test_refused),
	TAP_TEST(test_ack),
	TAP_TEST(test_codec),
	TAP_TEST(test_frames),
};

int main(void)
{
	return tap_run(tests);
}
