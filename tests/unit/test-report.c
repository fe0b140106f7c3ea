// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel report parser's (report/report.h) behaviour as an API: its
 * table, its edge inputs, JSON, bounds, threads. What it makes of a log
 * is tested by tests/unit/test-report-corpus.c on the files under
 * tests/data/kernel-reports/.
 */
#include <pthread.h>
#include <string.h>

#include "report/internal.h"
#include "report/report.h"
#include "tap.h"
#include "util/util.h"

#define CHECK_STR(got, want)						\
	CHECK((got) && !strcmp((got), (want)), "got '%s' want '%s'",	\
	      (got) ? (got) : "(null)", (want))

static int parse(const char *log, struct mmf_report **reps)
{
	return mmf_report_parse(log, strlen(log), reps);
}

static void compile_all(const char *const *res)
{
	for (; res && *res; res++)
		if (strcmp(*res, STACK))
			mmf_rx_find(*res, "", 0, 0, NULL);
}

/* Rows are compiled when first used: a typo in a rare one must fail here. */
static void test_table_compiles(void)
{
	for (size_t k = 0; k < mmf_nr_oopses; k++) {
		const struct oops *o = &mmf_oopses[k];

		compile_all((const char *const[]){ o->line_re, NULL });
		compile_all(o->ignore);
		for (const struct oops_fmt *f = o->fmts; f->title; f++) {
			compile_all((const char *const[]){ f->title, NULL });
			compile_all(f->report);
			if (!f->stack)
				continue;
			compile_all(f->stack->parts);
			compile_all(f->stack->parts2);
			compile_all((const char *const[]){ f->stack->skip, NULL });
		}
	}
	compile_all(mmf_mid_report);
	compile_all(mmf_stack_dumpers);
	compile_all(mmf_stack_starts);
	CHECK(mmf_nr_oopses > 0, "empty table");
}

static void test_empty(void)
{
	struct mmf_report *reps = (void *)1;

	CHECK(mmf_report_parse("", 0, &reps) == 0, "reports in empty input");
	CHECK(reps == NULL, "no array for no report");
	CHECK(mmf_report_parse(NULL, 0, &reps) == 0, "reports in no input");
	mmf_reports_free(reps, 0);
}

/* Arbitrary bytes around a report: titles stay clean, JSON stays valid. */
static void test_binary_json(void)
{
	static const char log[] =
		"\xff\xfe garbage \x01\n"
		"[    1.0] WARNING: CPU: 0 PID: 1 at mm/slub.c:1 foo+0x1/0x2 \xc3\x28\n"
		"[    1.1] RIP: 0010:foo+0x1/0x2\n"
		"[    1.2] Call Trace:\n"
		"[    1.3]  bar+0x1/0x2 \"quoted\" \\ \t\xe2\x82\xac\n"
		"[    1.4]  baz+0x1/0x2\n"
		"[    1.5]  \0qux+0x1/0x2\n";
	struct mmf_report *reps;
	struct strbuf sb;
	int n = mmf_report_parse(log, sizeof(log) - 1, &reps);

	CHECK(n == 1, "%d reports", n);
	CHECK_STR(reps[0].title, "WARNING in foo");
	CHECK(strstr(reps[0].text, "?qux"), "NUL not replaced");
	mmf_sb_init(&sb);
	mmf_report_json(&reps[0], "a\"b", &sb);
	CHECK(strstr(sb.buf, "{\"file\":\"a\\\"b\",\"title\":\"WARNING in foo\","), "%s", sb.buf);
	CHECK(strstr(sb.buf, "\"type\":\"WARNING\",\"frame\":\"foo\",\"corrupted\":false,"),
	      "%s", sb.buf);
	CHECK(strstr(sb.buf, "\\ufffd("), "invalid UTF-8 not replaced: %s", sb.buf);
	CHECK(strstr(sb.buf, "\\\"quoted\\\" \\\\ \\t\xe2\x82\xac\\n"), "escaping: %s", sb.buf);
	CHECK(!strchr(sb.buf, '\n'), "raw newline in JSON");
	mmf_sb_free(&sb);
	mmf_reports_free(reps, n);
}

static const char warning_log[] =
	"[    1.000000] WARNING: CPU: 0 PID: 1 at mm/mmap.c:1 foo+0x1/0x2\n"
	"[    1.000001] RIP: 0010:foo+0x1/0x2\n"
	"[    1.000002] Call Trace:\n"
	"[    1.000003]  bar+0x1/0x2\n";

/* Reports past the bounds on one report's length are still found. */
static void test_long_log(void)
{
	struct mmf_report *reps;
	struct strbuf sb;
	int n;

	mmf_sb_init(&sb);
	mmf_sb_puts(&sb, warning_log);
	for (int i = 0; i < 60000; i++)
		mmf_sb_printf(&sb, "[    2.%06d] line %d\n", i, i);
	mmf_sb_puts(&sb, "[    3.000000] BUG: Bad rss-counter state mm:000000001234abcd\n");
	n = mmf_report_parse(sb.buf, sb.len, &reps);
	CHECK(n == 2, "%d reports", n);
	CHECK_STR(reps[0].title, "WARNING in foo");
	CHECK(strlen(reps[0].text) < 100000, "report text of %zu bytes", strlen(reps[0].text));
	CHECK_STR(reps[1].title, "BUG: Bad rss-counter state");
	mmf_reports_free(reps, n);
	mmf_sb_free(&sb);
}

static void *parse_warning(void *arg)
{
	for (int i = 0; i < 50; i++) {
		struct mmf_report *reps;
		int n = parse(warning_log, &reps);
		bool ok = n == 1 && !strcmp(reps[0].title, "WARNING in foo");

		mmf_reports_free(reps, n);
		if (!ok)
			return arg;
	}
	return NULL;
}

/* The regex cache is shared: parse from several threads at once. */
static void test_threads(void)
{
	pthread_t t[4];

	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		CHECK(!pthread_create(&t[i], NULL, parse_warning, (void *)1), "pthread_create");
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		void *ret;

		CHECK(!pthread_join(t[i], &ret) && !ret, "thread %zu got a wrong title", i);
	}
}

static const struct tap_test tests[] = {
	TAP_TEST(test_table_compiles),
	TAP_TEST(test_empty),
	TAP_TEST(test_binary_json),
	TAP_TEST(test_long_log),
	TAP_TEST(test_threads),
};

int main(void)
{
	return tap_run(tests);
}
