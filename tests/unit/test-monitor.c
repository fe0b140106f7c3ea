// SPDX-License-Identifier: GPL-2.0
/*
 * The live console monitor: a real report fed in small pieces is taken
 * once, when complete, with its title; a report before the fuzzer started
 * is a boot crash; silence is a hang; death without a report is lost.
 */
#include <stdlib.h>
#include <string.h>

#include "campaign/monitor.h"
#include "tap.h"
#include "util/util.h"

static const struct mmf_monitor_opts opts = {
	.settle_ms = 1000, .hang_ms = 60000, .boot_ms = 120000,
	.ready = "mmfuzz: fuzzing natively",
};

/* The console part of a test data file, and its expected title. */
static char *console_of(const char *path, char *title, size_t n)
{
	char *text = read_file(path, NULL), *body, *t;

	CHECK(text, "%s unreadable", path);
	t = strstr(text, "TITLE: ");
	CHECK(t, "%s has no title", path);
	snprintf(title, n, "%.*s", (int)strcspn(t + 7, "\n"), t + 7);
	body = strstr(text, "\n\n");
	CHECK(body, "%s has no console part", path);
	memmove(text, body + 2, strlen(body + 2) + 1);
	return text;
}

static void feed_slowly(struct mmf_monitor *m, const char *s, uint64_t *now, int *taken,
			struct mmf_finding *f)
{
	for (size_t off = 0, len = strlen(s); off < len; off += 100) {
		mmf_monitor_feed(m, s + off, MIN((size_t)100, len - off), *now);
		*now += 10;
		if (mmf_monitor_poll(m, *now, false, f))
			(*taken)++;
	}
}

static void test_report_while_fuzzing(void)
{
	char title[256], *log = console_of("tests/data/kernel-reports/106", title, sizeof(title));
	struct mmf_monitor *m = mmf_monitor_new(&opts, 0);
	struct mmf_finding f;
	uint64_t now = 0;
	int taken = 0;

	mmf_monitor_feed(m, "[    3.1] Run /init as init process\n", 36, now);
	feed_slowly(m, "mmfuzz: fuzzing natively, seed 1, 2 swap device(s)\n", &now, &taken, &f);
	CHECK(mmf_monitor_ready(m), "ready line not seen");
	feed_slowly(m, log, &now, &taken, &f);
	CHECK(taken == 0, "report taken while still arriving");
	now += opts.settle_ms;
	CHECK(mmf_monitor_poll(m, now, false, &f) == 1, "complete report not taken");
	CHECK(f.kind == MMF_FOUND_REPORT, "kind %d", f.kind);
	CHECK(!strcmp(f.title, title), "title '%s', expected '%s'", f.title, title);
	CHECK(strstr(f.report, "KASAN"), "report text lacks the report");
	mmf_finding_free(&f);
	mmf_monitor_free(m);
	free(log);
}

static void test_boot_crash(void)
{
	char title[256], *log = console_of("tests/data/kernel-reports/140", title, sizeof(title));
	struct mmf_monitor *m = mmf_monitor_new(&opts, 0);
	struct mmf_finding f;

	mmf_monitor_feed(m, log, strlen(log), 5);
	CHECK(mmf_monitor_poll(m, 5, true, &f) == 1, "report at death not taken");
	CHECK(f.kind == MMF_FOUND_BOOT_CRASH, "a report before the fuzzer started is a boot crash");
	CHECK(!strcmp(f.title, title), "title '%s', expected '%s'", f.title, title);
	mmf_finding_free(&f);
	mmf_monitor_free(m);
	free(log);
}

static void test_hang_and_lost(void)
{
	struct mmf_monitor *m = mmf_monitor_new(&opts, 0);
	const char *ready = "mmfuzz: fuzzing natively, seed 2\n";
	struct mmf_finding f;

	mmf_monitor_feed(m, ready, strlen(ready), 1000);
	CHECK(!mmf_monitor_poll(m, 1000 + opts.hang_ms - 1, false, &f), "hang too early");
	CHECK(mmf_monitor_poll(m, 1000 + opts.hang_ms, false, &f) == 1, "hang not seen");
	CHECK(f.kind == MMF_FOUND_HANG && !strcmp(f.title, "no output from test machine"),
	      "hang title '%s'", f.title);
	mmf_finding_free(&f);
	CHECK(mmf_monitor_poll(m, 1001, true, &f) == 1 && f.kind == MMF_FOUND_LOST,
	      "death without report not lost");
	mmf_finding_free(&f);
	mmf_monitor_free(m);

	m = mmf_monitor_new(&opts, 0);
	CHECK(mmf_monitor_poll(m, opts.boot_ms, false, &f) == 1 && f.kind == MMF_FOUND_HANG,
	      "a guest that never starts the fuzzer is not a hang");
	mmf_finding_free(&f);
	mmf_monitor_free(m);
}

static void test_marker_split_across_feeds(void)
{
	struct mmf_monitor *m = mmf_monitor_new(&opts, 0);

	mmf_monitor_feed(m, "mmfuzz: fuzz", 12, 1);
	mmf_monitor_feed(m, "ing natively\n", 13, 2);
	CHECK(mmf_monitor_ready(m), "ready line split over two feeds not seen");
	mmf_monitor_free(m);
}

int main(void)
{
	test_report_while_fuzzing();
	test_boot_crash();
	test_hang_and_lost();
	test_marker_split_across_feeds();
	TEST_DONE();
}
