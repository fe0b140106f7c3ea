// SPDX-License-Identifier: GPL-2.0
/*
 * The focus without binutils: ranges merged and looked up, their text form
 * there and back (what a guest gets), the selection of functions by a
 * spec, PC files read with their malformed lines named, and the objdump
 * lines that are coverage callbacks.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "cover/cover.h"
#include "cover/internal.h"
#include "cover/focus.h"
#include "util/util.h"

static bool ranges_are(const struct mmf_focus *f, const uint64_t *want, size_t n)
{
	if (f->n != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (f->v[i].lo != want[2 * i] || f->v[i].hi != want[2 * i + 1])
			return false;
	return true;
}

static void test_merge(void)
{
	struct mmf_focus f = { 0 };
	static const uint64_t want[] = { 0x10, 0x40, 0x50, 0x60, 0x100, 0x200 };

	mmf_focus_add(&f, 0x100, 0x200);
	mmf_focus_add(&f, 0x30, 0x40);		/* adjacent to the next: joined */
	mmf_focus_add(&f, 0x10, 0x30);
	mmf_focus_add(&f, 0x20, 0x28);		/* inside */
	mmf_focus_add(&f, 0x50, 0x60);
	mmf_focus_add(&f, 0x58, 0x58);		/* empty: not added */
	mmf_focus_add(&f, 0x90, 0x80);		/* backwards: not added */
	mmf_focus_add(&f, 0x150, 0x180);	/* inside the last */
	CHECK(f.n == 6, "%zu ranges added", f.n);
	mmf_focus_merge(&f);
	CHECK(ranges_are(&f, want, 3), "%zu ranges: %llx-%llx ...", f.n,
	      (unsigned long long)f.v[0].lo, (unsigned long long)f.v[0].hi);
	CHECK(mmf_focus_size(&f) == 0x30 + 0x10 + 0x100, "size %llu",
	      (unsigned long long)mmf_focus_size(&f));
	mmf_focus_merge(&f);
	CHECK(ranges_are(&f, want, 3), "a second merge changed it");
	mmf_focus_free(&f);
	mmf_focus_merge(&f);
	CHECK(f.n == 0, "empty");
}

static void test_has(void)
{
	struct mmf_focus f = { 0 };
	static const struct {
		uint64_t pc;
		bool in;
	} cases[] = {
		{ 0, false }, { 0xf, false }, { 0x10, true }, { 0x1f, true }, { 0x20, false },
		{ 0x2f, false }, { 0x30, true }, { 0x3f, true }, { 0x40, false },
		{ UINT64_MAX - 1, true }, { UINT64_MAX, false },
	};

	CHECK(!mmf_focus_has(&f, 0), "an empty focus has something");
	mmf_focus_add(&f, 0x30, 0x40);
	mmf_focus_add(&f, 0x10, 0x20);
	mmf_focus_add(&f, UINT64_MAX - 1, UINT64_MAX);
	mmf_focus_merge(&f);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		CHECK(mmf_focus_has(&f, cases[i].pc) == cases[i].in, "%llx: %d",
		      (unsigned long long)cases[i].pc, !cases[i].in);
	CHECK(mmf_focus_find(&f, 0x35) == &f.v[1], "0x35 not in the second range");
	mmf_focus_free(&f);
}

static void test_minus(void)
{
	struct mmf_focus a = { 0 }, b = { 0 }, d = { 0 }, e = { 0 };
	static const uint64_t want[] = { 0x10, 0x18, 0x1c, 0x20, 0x40, 0x48, 0x60, 0x70 };

	mmf_focus_add(&a, 0x10, 0x20);
	mmf_focus_add(&a, 0x30, 0x50);
	mmf_focus_add(&a, 0x60, 0x70);
	mmf_focus_merge(&a);
	mmf_focus_add(&b, 0x18, 0x1c);		/* a hole */
	mmf_focus_add(&b, 0x28, 0x40);		/* the head of a range, from before it */
	mmf_focus_add(&b, 0x48, 0x58);		/* its tail, past it */
	mmf_focus_add(&b, 0x80, 0x90);		/* nothing of a */
	mmf_focus_merge(&b);
	mmf_focus_minus(&a, &b, &d);
	CHECK(ranges_are(&d, want, 4), "%zu ranges", d.n);
	mmf_focus_free(&d);
	mmf_focus_minus(&a, &a, &d);
	CHECK(d.n == 0, "a minus a: %zu ranges", d.n);
	mmf_focus_minus(&b, &e, &d);
	CHECK(ranges_are(&d, (const uint64_t[]){ 0x18, 0x1c, 0x28, 0x40, 0x48, 0x58, 0x80, 0x90 },
			 4), "b minus nothing is not b");
	mmf_focus_free(&a);
	mmf_focus_free(&b);
	mmf_focus_free(&d);
}

static void test_text(void)
{
	struct mmf_focus f = { 0 }, g = { 0 };
	static const uint64_t want[] = { 0x1000, 0x3000, 0xffffffff8141e4d0, 0xffffffff8141e9a0 };
	static const char in[] = "# the focus\n\nffffffff8141e4d0-0xffffffff8141e9a0\r\n"
				 "2000-3000  \n1000-2000";
	char err[128] = "", *text;

	CHECK(!mmf_focus_parse(in, strlen(in), &f, err, sizeof(err)), "%s", err);
	CHECK(ranges_are(&f, want, 2), "%zu ranges", f.n);
	text = mmf_focus_format(&f);
	CHECK(!strcmp(text, "1000-3000\nffffffff8141e4d0-ffffffff8141e9a0\n"), "%s", text);
	CHECK(!mmf_focus_parse(text, strlen(text), &g, err, sizeof(err)), "%s", err);
	CHECK(ranges_are(&g, want, 2), "the round trip lost ranges");
	free(text);
	mmf_focus_free(&g);
	mmf_focus_free(&f);
	text = mmf_focus_format(&f);
	CHECK(!strcmp(text, ""), "empty focus: '%s'", text);
	CHECK(!mmf_focus_parse(text, 0, &f, err, sizeof(err)) && !f.n, "empty text");
	free(text);
}

static void test_text_bad(void)
{
	static const char *const bad[] = {
		"10-2x", "10", "-20", "10-", "20-20", "30-20", "1-2-3", "0x-10",
		"10000000000000000-10000000000000001", " 10-20", "10 - 20",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct mmf_focus f = { 0 };
		char *text = mmf_xasprintf("1-2\n# ok\n%s\n5-6\n", bad[i]), err[128] = "";

		CHECK(mmf_focus_parse(text, strlen(text), &f, err, sizeof(err)) == -1,
		      "'%s' taken", bad[i]);
		CHECK(!strncmp(err, "line 3: '", 9), "'%s': %s", bad[i], err);
		CHECK(f.n == 0 && !f.v, "'%s': ranges left", bad[i]);
		free(text);
	}
}

static void test_pcs(void)
{
	struct mmf_cover_pcs p = { 0 };
	static const char a[] = "0xffffffff8152bb9d\nffffffff8152bc6f\n# a comment\n\n"
				" 0XFFFFFFFF8152BB9D \r\n0xffffffff81000000";
	static const char b[] = "ffffffff81000000\n";
	static const uint64_t want[] = { 0xffffffff81000000, 0xffffffff8152bb9d,
					 0xffffffff8152bc6f };
	char err[128] = "";

	CHECK(!mmf_cover_pcs_parse("a", a, strlen(a), &p, err, sizeof(err)), "%s", err);
	CHECK(!mmf_cover_pcs_parse("b", b, strlen(b), &p, err, sizeof(err)), "%s", err);
	CHECK(!mmf_cover_pcs_parse("c", "", 0, &p, err, sizeof(err)), "%s", err);
	CHECK(p.n == 5, "%zu PCs", p.n);
	mmf_cover_pcs_sort(&p);
	CHECK(p.n == 3 && !memcmp(p.v, want, sizeof(want)), "%zu distinct PCs", p.n);
	mmf_cover_pcs_free(&p);
}

static void test_pcs_bad(void)
{
	static const char *const bad[] = {
		"0xzz", "ffffffff8152bb9d ffffffff8152bc6f", "0x", "-1", "10000000000000000",
		"0x1f # no comments at the end", "ffff:ffff",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct mmf_cover_pcs p = { 0 };
		char *text = mmf_xasprintf("# pcs\n0x1000\n\n%s\n0x2000\n", bad[i]), err[128] = "";

		CHECK(mmf_cover_pcs_parse("run/pcs.1", text, strlen(text), &p, err, sizeof(err)),
		      "'%s' taken", bad[i]);
		CHECK(!strncmp(err, "run/pcs.1:4: '", 14) && strstr(err, "is not a hex address"),
		      "'%s': %s", bad[i], err);
		mmf_cover_pcs_free(&p);
		free(text);
	}
}

static void test_pcs_read(void)
{
	struct mmf_cover_pcs p = { 0 };
	char err[256] = "";

	CHECK(mmf_cover_pcs_read("/nonexistent/pcs", &p, err, sizeof(err)) == -1, "read");
	CHECK(!strcmp(err, "/nonexistent/pcs: No such file or directory"), "%s", err);
	mmf_cover_pcs_free(&p);
}

/* mm/a.c: f1 f2 | kernel/b.c: g | mm/a.c: f3 | mm/sub/c.c: h | mm/ab.c: k */
static struct sym_func funcs[] = {
	{ 0x1000, 0x1010, "mm/a.c", "f1" },
	{ 0x1020, 0x1040, "mm/a.c", "f2" },
	{ 0x1040, 0x1080, "kernel/b.c", "g" },
	{ 0x1080, 0x1090, "mm/a.c", "f3" },
	{ 0x10a0, 0x10b0, "mm/sub/c.c", "h" },
	{ 0x10c0, 0x10d0, "mm/ab.c", "k" },
};

static const struct sym_funcs fs = {
	.v = funcs, .n = ARRAY_SIZE(funcs), .stext = 0x1000, .etext = 0x2000,
};

static void select_is(const char *spec, const uint64_t *want, size_t n, const char *sel_want)
{
	struct mmf_focus f = { 0 };
	bool sel[ARRAY_SIZE(funcs)];
	char *why = NULL;

	CHECK(!mmf_sym_focus_select(&fs, spec, &f, sel, &why), "%s: %s", spec, why);
	CHECK(ranges_are(&f, want, n), "%s: %zu ranges", spec, f.n);
	for (size_t i = 0; i < ARRAY_SIZE(funcs); i++)
		CHECK(sel[i] == (sel_want[i] == '1'), "%s: %s %s", spec, funcs[i].name,
		      sel[i] ? "selected" : "not selected");
	mmf_focus_free(&f);
}

static void test_select(void)
{
	struct mmf_focus f = { 0 };
	char *why = NULL;

	/* f1 and f2 are one range, the padding between them too */
	select_is("mm", (const uint64_t[]){ 0x1000, 0x1040, 0x1080, 0x10d0 }, 2, "110111");
	select_is("./mm/", (const uint64_t[]){ 0x1000, 0x1040, 0x1080, 0x10d0 }, 2, "110111");
	select_is("mm/a.c", (const uint64_t[]){ 0x1000, 0x1040, 0x1080, 0x1090 }, 2, "110100");
	select_is("mm/sub, kernel/b.c", (const uint64_t[]){ 0x1040, 0x1080, 0x10a0, 0x10b0 }, 2,
		  "001010");
	select_is("all", (const uint64_t[]){ 0x1000, 0x2000 }, 1, "111111");
	CHECK(mmf_sym_focus_select(&fs, "mm/a.c,mm/nosuch.c", &f, NULL, &why) == -1, "nosuch");
	CHECK(why && strstr(why, "no function of the kernel text is in mm/nosuch.c"), "%s", why);
	CHECK(f.n == 0, "ranges left after an error");
	free(why);
	why = NULL;
	/* a directory is not a prefix of a file name */
	CHECK(mmf_sym_focus_select(&fs, "mm/a", &f, NULL, &why) == -1, "mm/a matched mm/a.c");
	free(why);
	why = NULL;
	CHECK(mmf_sym_focus_select(&fs, "mm,,kernel", &f, NULL, &why) == -1, "empty entry");
	CHECK(why && strstr(why, "an empty file or directory"), "%s", why);
	free(why);
	CHECK(mmf_sym_funcs_before(&fs, 0x1045) == &funcs[2], "0x1045 not in g");
	CHECK(mmf_sym_funcs_before(&fs, 0x1015) == &funcs[0], "0x1015 not after f1");
	CHECK(mmf_sym_funcs_before(&fs, 0xfff) == NULL, "0xfff has a function");
}

static void test_site_line(void)
{
	static const struct {
		const char *line;
		uint64_t call;
		unsigned int len;
	} good[] = {
		{ "ffffffff810002c9:\te8 e2 7b 34 00       \tcall   ffffffff81347eb0 "
		  "<__sanitizer_cov_trace_pc>", 0xffffffff810002c9, 5 },
		{ "  401136:\te8 05 00 00 00       \tcallq  401140 <__sanitizer_cov_trace_pc>",
		  0x401136, 5 },
		{ "ffff800080010040:\t94000000 \tbl\tffff8000802a1e40 <__sanitizer_cov_trace_pc>",
		  0xffff800080010040, 4 },
	};
	static const char *const bad[] = {
		"ffffffff81000360:\te9 4b 7b 34 00       \tjmp    ffffffff81347eb0 "
		"<__sanitizer_cov_trace_pc>",
		"ffffffff810002c9:\te8 e2 7b 34 00       \tcall   ffffffff81347eb0 <schedule>",
		"ffffffff810002c9:\tff 15 e2 7b 34 00    \tcall   *0x347be2(%rip)        "
		"# ffffffff81347eb0 <__sanitizer_cov_trace_pc>",
		"ffffffff81347eb0 <__sanitizer_cov_trace_pc>:",
		"ffffffff810002c9:\te8 e2 7b 34 0       \tcall   ffffffff81347eb0 "
		"<__sanitizer_cov_trace_pc>",
		"",
	};
	struct sym_site s;

	for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
		CHECK(mmf_sym_parse_site(good[i].line, strlen(good[i].line), &s), "%s",
		      good[i].line);
		CHECK(s.call == good[i].call && s.len == good[i].len, "%s: %llx %u", good[i].line,
		      (unsigned long long)s.call, s.len);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		CHECK(!mmf_sym_parse_site(bad[i], strlen(bad[i]), &s), "taken: %s", bad[i]);
}

static void test_site_of(void)
{
	struct sym_site v[] = { { 0x100, 5 }, { 0x110, 5 }, { 0x200, 4 } };
	struct sym_sites s = { .v = v, .n = ARRAY_SIZE(v) };

	CHECK(mmf_sym_site_of(&s, 0x105) == &v[0], "0x105");
	CHECK(mmf_sym_site_of(&s, 0x115) == &v[1], "0x115");
	CHECK(mmf_sym_site_of(&s, 0x204) == &v[2], "0x204");
	/* the call's own address is no PC KCOV records */
	CHECK(!mmf_sym_site_of(&s, 0x100) && !mmf_sym_site_of(&s, 0x300), "found a non-site");
}


static void test_weights(void)
{
	struct mmf_focus_weights w;
	char err[128] = "";

	CHECK(!mmf_focus_weights_parse("# the patch\n8 1000-1100\n2 1000-2000\n8 3000-3010\n", &w,
				       err, sizeof(err)), "parse: %s", err);
	CHECK(w.n == 2, "two weights: %d", w.n);
	CHECK(mmf_focus_weight(&w, 0x1050) == 8, "the larger weight wins where both are");
	CHECK(mmf_focus_weight(&w, 0x1500) == 2 && mmf_focus_weight(&w, 0x3005) == 8,
	      "each range its own weight");
	CHECK(mmf_focus_weight(&w, 0x2000) == 1 && mmf_focus_weight(&w, 0x10) == 1,
	      "outside: weight 1");
	mmf_focus_weights_free(&w);
	CHECK(mmf_focus_weights_parse("1 1000-2000\n", &w, err, sizeof(err)) == -1 &&
	      strstr(err, "line 1"), "weight 1 is no weight: %s", err);
	CHECK(mmf_focus_weights_parse("8 2000-1000\n", &w, err, sizeof(err)) == -1,
	      "an empty range");
	CHECK(mmf_focus_weights_parse("2 1-2\n3 1-2\n4 1-2\n5 1-2\n6 1-2\n", &w, err,
				      sizeof(err)) == -1 && strstr(err, "line 5"),
	      "at most %d weights: %s", MMF_FOCUS_WEIGHTS, err);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_merge),
	TAP_TEST(test_has),
	TAP_TEST(test_minus),
	TAP_TEST(test_text),
	TAP_TEST(test_text_bad),
	TAP_TEST(test_weights),
	TAP_TEST(test_pcs),
	TAP_TEST(test_pcs_bad),
	TAP_TEST(test_pcs_read),
	TAP_TEST(test_select),
	TAP_TEST(test_site_line),
	TAP_TEST(test_site_of),
};

int main(void)
{
	return tap_run(tests);
}
