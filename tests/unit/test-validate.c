// SPDX-License-Identifier: GPL-2.0
/* The statistics and the verdict of mmfuzz validate. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "validate/validate.h"

static struct mmf_stats st(int n, double mean, double sd)
{
	return (struct mmf_stats){ .n = n, .mean = mean, .stddev = sd, .median = mean };
}

static void test_ibeta(void)
{
	CHECK(fabs(mmf_ibeta(1, 1, 0.3) - 0.3) < 1e-12, "I_x(1,1) = x");
	CHECK(fabs(mmf_ibeta(3, 1, 0.5) - 0.125) < 1e-12, "I_x(a,1) = x^a");
	CHECK(fabs(mmf_ibeta(2.5, 4, 0.4) + mmf_ibeta(4, 2.5, 0.6) - 1) < 1e-12, "symmetry");
	CHECK(mmf_ibeta(2, 3, 0) == 0 && mmf_ibeta(2, 3, 1) == 1, "ends");
}

static void test_welch(void)
{
	/* n = 6, sd = 1 on both sides: df = 10; t(0.975, 10) = 2.228. */
	struct mmf_stats a = st(6, 0, 1), b = st(6, 2.228 * sqrt(1.0 / 3), 1);
	double p = mmf_welch_p(&a, &b);

	CHECK(fabs(p - 0.05) < 0.0005, "p at the 5%% critical value of t(10): %g", p);
	/* n = 11, sd = 1: df = 20; t(0.995, 20) = 2.845. */
	a = st(11, 0, 1);
	b = st(11, 2.845 * sqrt(2.0 / 11), 1);
	p = mmf_welch_p(&a, &b);
	CHECK(fabs(p - 0.01) < 0.0002, "p at the 1%% critical value of t(20): %g", p);
	CHECK(mmf_welch_p(&a, &a) == 1, "same samples");
	b = st(1, 5, 0);
	CHECK(mmf_welch_p(&a, &b) == 1, "one sample is no evidence");
	a = st(5, 3, 0);
	b = st(5, 3, 0);
	CHECK(mmf_welch_p(&a, &b) == 1, "no variance, same mean");
	b.mean = 4;
	CHECK(mmf_welch_p(&a, &b) == 0, "no variance, other mean");
}

static struct mmf_val_metric metric(const char *name, double base, double patched, double sd,
				    bool higher_is_better)
{
	struct mmf_val_metric m = { .unit = "ms", .higher_is_better = higher_is_better };

	snprintf(m.bench, sizeof(m.bench), "b");
	snprintf(m.name, sizeof(m.name), "%s", name);
	m.st[0] = st(5, base, sd);
	m.st[1] = st(5, patched, sd);
	return m;
}

static void test_judge(void)
{
	struct mmf_val_metric ms[22];
	struct mmf_val_case cs[5] = {
		{ .hits = { 2, 0 }, .runs = { 3, 3 } },
		{ .hits = { 0, 1 }, .runs = { 3, 3 } },
		{ .hits = { 3, 3 }, .runs = { 3, 3 } },
		{ .hits = { 0, 0 }, .runs = { 3, 3 } },
		{ .hits = { 0, 0 }, .runs = { 0, 3 } },
	};
	struct mmf_val_result r = { .cases = cs, .nr_cases = 5, .metrics = ms };
	struct strbuf sb;

	ms[r.nr_metrics++] = metric("same", 100, 100, 5, false);
	ms[r.nr_metrics++] = metric("slower", 100, 150, 5, false);
	ms[r.nr_metrics++] = metric("faster", 100, 60, 5, false);
	ms[r.nr_metrics++] = metric("more_throughput", 100, 150, 5, true);
	/* Confident but tiny: noise. */
	ms[r.nr_metrics++] = metric("tiny", 100, 101, 0.1, false);
	mmf_val_judge(&r, 0.05, 0.05);
	CHECK(!strcmp(cs[0].verdict, "fixed"), "%s", cs[0].verdict);
	CHECK(!strcmp(cs[1].verdict, "regression"), "%s", cs[1].verdict);
	CHECK(!strcmp(cs[2].verdict, "still failing"), "%s", cs[2].verdict);
	CHECK(!strcmp(cs[3].verdict, "passes"), "%s", cs[3].verdict);
	CHECK(!strcmp(cs[4].verdict, "error"), "%s", cs[4].verdict);
	CHECK(!strcmp(ms[0].verdict, "noise"), "same: %s", ms[0].verdict);
	CHECK(!strcmp(ms[1].verdict, "worse"), "slower: %s", ms[1].verdict);
	CHECK(!strcmp(ms[2].verdict, "better"), "faster: %s", ms[2].verdict);
	CHECK(!strcmp(ms[3].verdict, "better"), "throughput: %s", ms[3].verdict);
	CHECK(!strcmp(ms[4].verdict, "noise"), "tiny: %s", ms[4].verdict);
	CHECK(r.regressions == 2, "one case and one metric regressed: %d", r.regressions);

	/* 20 metrics each at p ~ 0.03: chance, once corrected for their number. */
	r.nr_cases = 0;
	r.nr_metrics = 0;
	for (int i = 0; i < 20; i++)
		ms[r.nr_metrics++] = metric("m", 100, 100 + 2.6 * 10 * sqrt(0.4) / 1, 10, false);
	mmf_val_judge(&r, 0.05, 0.05);
	CHECK(ms[0].p > 0.02 && ms[0].p < 0.05, "p %g", ms[0].p);
	CHECK(r.regressions == 0, "Holm-Bonferroni keeps chance out: %d", r.regressions);

	/*
	 * p ~ 0.02 beside three counters that were one value in every run:
	 * those test nothing, so the family is the one metric.
	 */
	r.nr_metrics = 0;
	ms[r.nr_metrics++] = metric("slower", 100, 100 + 2.9 * 10 * sqrt(0.4), 10, false);
	for (int i = 0; i < 3; i++)
		ms[r.nr_metrics++] = metric("constant", 7, 7, 0, false);
	mmf_val_judge(&r, 0.05, 0.05);
	CHECK(ms[0].p > 0.0125 && ms[0].p < 0.05, "p %g", ms[0].p);
	CHECK(!strcmp(ms[0].verdict, "worse") && r.regressions == 1,
	      "constant metrics are no hypotheses: %s, %d", ms[0].verdict, r.regressions);
	/* Constant but different: a difference every run, the surest of all. */
	ms[1] = metric("constant", 7, 9, 0, false);
	mmf_val_judge(&r, 0.05, 0.05);
	CHECK(!strcmp(ms[1].verdict, "worse"), "constant and different: %s", ms[1].verdict);

	r.nr_metrics = 1;
	ms[0] = metric("same", 100, 100, 5, false);
	mmf_val_judge(&r, 0.05, 0.05);
	mmf_sb_init(&sb);
	mmf_val_json(&r, &sb);
	CHECK(strstr(sb.buf, "\"regressed\":false") && strstr(sb.buf, "\"verdict\":\"noise\""),
	      "%s", sb.buf);
	mmf_sb_free(&sb);
}


/* mm/x.c after the series below, in the kernel's style. */
static const char x_after[] =
	"#include <linux/mm.h>\n"			/* 1 */
	"\n"
	"static int __init x_init(void)\n"		/* 3 */
	"{\n"
	"\treturn 1;\n"
	"}\n"						/* 6 */
	"\n"
	"static struct x_ops ops = {\n"			/* 8: not a function */
	"\t.f = 1,\n"
	"};\n"
	"\n"
	"unsigned long\n"				/* 12: patch 1, at 10 before patch 2 */
	"x_count(struct page *page,\n"
	"\tint nr)\n"
	"{\n"
	"\tint a = 2;\n"
	"\treturn a + nr;\n"
	"}\n"						/* 18 */
	"\n"
	"SYSCALL_DEFINE2(xcall, int, a, int, b)\n"	/* 20 */
	"{\n"
	"\treturn a;\n"
	"}\n"						/* 23 */
	"\n"
	"static void x_untouched(void)\n"		/* 25 */
	"{\n"
	"}\n";

/*
 * Patch 1 changes x_count; patch 2, after it, adds two lines to x_init
 * (moving x_count down) and removes a line of the syscall.
 */
static const char x_series[] =
	"--- a/mm/x.c\n"
	"+++ b/mm/x.c\n"
	"@@ -10,2 +10,2 @@\n"
	"-unsigned int\n"
	"+unsigned long\n"
	" x_count(struct page *page,\n"
	"diff --git a/mm/x.c b/mm/x.c\n"
	"--- a/mm/x.c\n"
	"+++ b/mm/x.c\n"
	"@@ -3,2 +3,4 @@\n"
	" static int __init x_init(void)\n"
	" {\n"
	"+\n"
	"+\n"
	"@@ -19,4 +21,3 @@\n"
	" {\n"
	"-\tb++;\n"
	" \treturn a;\n"
	" }\n"
	"--- a/Documentation/x.rst\n"
	"+++ b/Documentation/x.rst\n"
	"@@ -1 +1 @@\n"
	"-old\n"
	"+new\n";

static char *x_source(const char *file, void *arg)
{
	(void)arg;
	return strcmp(file, "mm/x.c") ? NULL : strdup(x_after);
}

static void test_changes(void)
{
	static const struct {
		const char *name;
		bool init;
	} want[] = { { "x_count", false }, { "x_init", true }, { "__do_sys_xcall", false } };
	struct mmf_val_changes c;
	char err[256] = "";
	int rc = mmf_val_changes_parse(x_series, x_source, NULL, &c, err, sizeof(err));

	CHECK(rc == 0, "parse: %s", err);
	if (rc)
		return;
	CHECK(c.nr_files == 2 && !strcmp(c.files[0], "mm/x.c") &&
	      !strcmp(c.files[1], "Documentation/x.rst"), "files: %d", c.nr_files);
	CHECK(c.nr_funcs == 3, "3 functions changed, not the struct or x_untouched: %d",
	      c.nr_funcs);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		bool found = false;

		for (int k = 0; k < c.nr_funcs; k++)
			if (!strcmp(c.funcs[k].name, want[i].name))
				found = c.funcs[k].diff && c.funcs[k].init == want[i].init;
		CHECK(found, "%s changed%s", want[i].name, want[i].init ? ", init" : "");
	}
	mmf_val_changes_free(&c);

	CHECK(mmf_val_changes_parse("--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1,3 +1,3 @@\n x\n", x_source,
				    NULL, &c, err, sizeof(err)) == -1 && strstr(err, "cut short"),
	      "a truncated hunk: %s", err);
	CHECK(mmf_val_changes_parse("hello\n", x_source, NULL, &c, err, sizeof(err)) == -1 &&
	      strstr(err, "no file"), "not a diff: %s", err);
}

/* A b4 am mbox: a cover letter, then two patches, one subject folded. */
static const char x_mbox[] =
	"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
	"From: A <a@example.org>\n"
	"Subject: [PATCH 0/2] mm: two fixes\n"
	"\n"
	"The cover letter: no diff.\n"
	"From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\n"
	"From: A <a@example.org>\n"
	"Subject: [PATCH 1/2] mm: swap: free the\n"
	" whole batch\n"
	"\n"
	"Subject: not a header, the body\n"
	"---\n"
	"--- a/mm/x.c\n"
	"+++ b/mm/x.c\n"
	"@@ -1 +1 @@\n"
	"-a\n"
	"+b\n"
	"--- a/mm/y.c\n"
	"+++ b/mm/y.c\n"
	"@@ -1 +1 @@\n"
	"-a\n"
	"+b\n"
	"From 2222222222222222222222222222222222222222 Mon Sep 17 00:00:00 2001\n"
	"Subject: [PATCH 2/2] mm: mlock: drain\n"
	"\n"
	"--- a/mm/z.c\n"
	"+++ b/mm/z.c\n"
	"@@ -1 +1 @@\n"
	"-a\n"
	"+b\n";

static void test_series(void)
{
	struct mmf_val_series s;

	CHECK(mmf_val_series_parse(x_mbox, &s) == 2, "an mbox: 2 patches, not the cover letter: %d",
	      s.nr);
	CHECK(s.nr == 2 && s.subject[0] && !strcmp(s.subject[0], "[PATCH 1/2] mm: swap: free the whole batch"),
	      "the first subject, unfolded: %s", s.nr ? s.subject[0] : "");
	CHECK(s.nr == 2 && s.subject[1] && !strcmp(s.subject[1], "[PATCH 2/2] mm: mlock: drain"),
	      "the second subject");
	mmf_val_series_free(&s);
	CHECK(mmf_val_series_parse(x_series, &s) == 1 && !s.subject[0],
	      "a plain diff is one patch without a subject: %d", s.nr);
	mmf_val_series_free(&s);
	CHECK(mmf_val_series_parse("Subject: hello\n\nno diff\n", &s) == 0, "no diff, no patch");
	mmf_val_series_free(&s);
}

/* A traced run: calls (si, res, state of its one page) of the main line. */
static void trace_run(struct mmf_guest_cover *c, const int64_t *res, const int *st, int n,
		      long vmlck)
{
	memset(c, 0, sizeof(*c));
	c->calls = calloc(n, sizeof(*c->calls));
	c->nr_calls = c->cap_calls = n;
	for (int i = 0; i < n; i++) {
		c->calls[i] = (struct mmf_guest_call){ .si = i, .party = -1, .res = res[i] };
		if (st[i] >= 0) {
			c->calls[i].nstates = 1;
			c->calls[i].states[0] = st[i];
		}
	}
	c->has_counters = true;
	c->counters[2] = vmlck;
}

static void test_differ(void)
{
	struct mmf_prog p;
	char err[256];
	/* mprotect of a hole: ENOMEM on the base, EFAULT on the patched kernel */
	const int64_t base_res[] = { 0, -ENOMEM, 0 }, pat_res[] = { 0, -EFAULT, 0 };
	/* statement 2's page: swapped or present by chance on the base */
	const int st_a[] = { -1, -1, 2 }, st_b[] = { -1, -1, 1 };
	struct mmf_guest_cover base[3], pat[3];
	const struct mmf_guest_cover *const runs[2] = { base, pat };
	int nruns[2] = { 3, 3 };
	struct mmf_val_behaviour b;

	CHECK(!mmf_prog_parse("m0 = mmap(0, 4, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
			      "mprotect(m0, 8, 4, PROT_READ)\n"
			      "madvise(m0, 0, 1, MADV_PAGEOUT)\n", &p, err, sizeof(err)),
	      "parse: %s", err);
	for (int r = 0; r < 3; r++) {
		trace_run(&base[r], base_res, r == 1 ? st_b : st_a, 3, 0);
		trace_run(&pat[r], pat_res, st_a, 3, 0);
	}
	CHECK(mmf_val_differ(&p, runs, nruns, &b) == 1 && b.first == 1 &&
	      !strcmp(b.items[0].what, "result") && !strcmp(b.items[0].base, "ENOMEM") &&
	      !strcmp(b.items[0].patched, "EFAULT"),
	      "the errno differs at statement 1, the noisy page does not count: %d items, first %d",
	      b.nr_items, b.first);
	/* A counter both kernels agree on within, not between: VmLck. */
	for (int r = 0; r < 3; r++)
		pat[r].counters[2] = 64;
	CHECK(mmf_val_differ(&p, runs, nruns, &b) == 2 && b.items[1].si == -1 &&
	      !strcmp(b.items[1].what, "VmLck") && !strcmp(b.items[1].patched, "64 kB"),
	      "VmLck at the end: %d items", b.nr_items);
	/* The same kernel twice: nothing. */
	{
		const struct mmf_guest_cover *const same[2] = { pat, pat };

		CHECK(mmf_val_differ(&p, same, nruns, &b) == 0 && b.first == -1,
		      "a kernel against itself: %d items", b.nr_items);
	}
	/* One run of the patched kernel where the call did not run: no value there. */
	pat[2].nr_calls = 1;
	for (int r = 0; r < 3; r++)
		pat[r].counters[2] = 0;
	CHECK(mmf_val_differ(&p, runs, nruns, &b) == 0, "a call missing from a run: no value");
	for (int r = 0; r < 3; r++) {
		free(base[r].calls);
		free(pat[r].calls);
	}
}

static void test_interval(void)
{
	struct mmf_stats a = st(6, 10, 1), b = st(6, 12, 1);
	double lo, hi, half = 2.228 * sqrt(2.0 / 6);

	CHECK(fabs(mmf_t_quantile(10, 0.05) - 2.228) < 0.001, "t(0.975, 10) = 2.228: %g",
	      mmf_t_quantile(10, 0.05));
	CHECK(fabs(mmf_t_quantile(1e6, 0.05) - 1.960) < 0.001, "t -> z for large df");
	CHECK(!mmf_welch_interval(&a, &b, 0.05, &lo, &hi), "an interval of 6 and 6");
	CHECK(fabs(lo - (2 - half)) < 0.002 && fabs(hi - (2 + half)) < 0.002,
	      "2 +- t * se: [%g, %g]", lo, hi);
	a.n = 1;
	CHECK(mmf_welch_interval(&a, &b, 0.05, &lo, &hi) == -1, "none with one sample");
}

/*
 * A benchmark whose runs the patched kernel ended: a regression beside
 * the reproducers, the run that chose it named, no Tested-by:.
 */
static void test_bench_ended(void)
{
	struct mmf_val_case cs[1] = {
		{ .name = "bench madv-free: kernel BUG in swap_cgroup_record",
		  .hits = { 0, 5 }, .runs = { 5, 5 } },
	};
	struct mmf_val_bench_reach br[2] = {
		{ .bench = "madv-free", .ended = "kernel BUG in swap_cgroup_record" },
		{ .bench = "mlock-scaling", .funcs = "" },
	};
	struct mmf_val_metric ms[1];
	struct mmf_val_result r = {
		.kernel = { "a", "b" }, .cases = cs, .nr_cases = 1, .bench_auto = true,
		.bench_reach = br, .nr_bench_reach = 2, .tested_by = "T <t@example.org>",
		.metrics = ms, .nr_metrics = 1,
	};
	struct strbuf sb;

	/* Every patched run ended: no samples there, no comparison. */
	ms[0] = metric("elapsed_ms", 4000, 0, 1000, false);
	ms[0].st[MMF_PATCHED] = (struct mmf_stats){ 0 };

	mmf_val_judge(&r, 0.05, 0.05);
	CHECK(r.regressions == 1 && !strcmp(cs[0].verdict, "regression"), "%d %s",
	      r.regressions, cs[0].verdict);
	mmf_sb_init(&sb);
	mmf_val_text(&r, &sb);
	CHECK(strstr(sb.buf, "mmfuzz validate: REGRESSED\n") && !strstr(sb.buf, "Tested-by:"),
	      "%s", sb.buf);
	CHECK(strstr(sb.buf, "  regression     base 0/5  patched 5/5  bench madv-free: kernel BUG"
		      " in swap_cgroup_record\n"), "%s", sb.buf);
	CHECK(strstr(sb.buf, "  madv-free      its traced run ended in \"kernel BUG in"
		      " swap_cgroup_record\": run\n") &&
	      strstr(sb.buf, "  mlock-scaling  reaches no changed function: not run\n"), "%s", sb.buf);
	CHECK(!strcmp(ms[0].verdict, "unmeasured") &&
	      strstr(sb.buf, "  b              elapsed_ms           patched: no run finished"),
	      "%s: %s", ms[0].verdict, sb.buf);
	sb.len = 0;
	mmf_val_json(&r, &sb);
	CHECK(strstr(sb.buf, "{\"bench\":\"madv-free\",\"reaches\":null,"
		      "\"ended\":\"kernel BUG in swap_cgroup_record\"}"), "%s", sb.buf);
	mmf_sb_free(&sb);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_bench_ended),
	TAP_TEST(test_series),
	TAP_TEST(test_differ),
	TAP_TEST(test_ibeta),
	TAP_TEST(test_welch),
	TAP_TEST(test_judge),
	TAP_TEST(test_interval),
	TAP_TEST(test_changes),
};

int main(void)
{
	return tap_run(tests);
}
