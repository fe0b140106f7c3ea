// SPDX-License-Identifier: GPL-2.0
/*
 * The live console monitor: a real report fed in small pieces is taken
 * once, when complete, with its title; a report that does not kill the
 * kernel is taken at its real end while the fuzzer goes on printing;
 * oracle reports on the console are left to the findings channel; a report
 * before the fuzzer started is a boot crash; silence is a hang; death
 * without a report is lost.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/monitor.h"
#include "tap.h"
#include "util/util.h"

static const struct mmf_monitor_opts opts = {
	.settle_ms = 1000, .hang_ms = 60000, .boot_ms = 120000,
	.ready = "mmfuzz: fuzzing natively",
	.ended = "mmfuzz-init: mmfuzz exited with status ",
};

/* The console part of a test data file, and its expected title. */
static char *console_of(const char *path, char *title, size_t n)
{
	char *text = mmf_read_file(path, NULL), *body, *t;

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
	/* The store dedups by them (store.h). */
	CHECK(f.nr_alt == 1 && !strcmp(f.alt_titles[0], "bad-access in consume_skb"),
	      "alternative titles: %d", f.nr_alt);
	mmf_finding_free(&f);
	mmf_monitor_free(m);
	free(log);
}

/*
 * Feed lines step ms apart, the console never quiet; the poll after which
 * line (0-based) took the report, -1 if none did.
 */
static int taken_after(const char *const *lines, int n, uint64_t step, struct mmf_finding *f,
		       size_t *end_of)
{
	struct mmf_monitor *m = mmf_monitor_new(&opts, 0);
	const char *ready = "mmfuzz: fuzzing natively, seed 3\n";
	uint64_t now = 0;
	size_t len = strlen(ready);
	int at = -1;

	mmf_monitor_feed(m, ready, len, now);
	for (int i = 0; i < n && at < 0; i++) {
		mmf_monitor_feed(m, lines[i], strlen(lines[i]), now += step);
		len += strlen(lines[i]);
		if (mmf_monitor_poll(m, now, false, f))
			at = i;
		if (end_of && i == n - 1)
			*end_of = len;
	}
	mmf_monitor_free(m);
	return at;
}

static void test_nonfatal_reports(void)
{
	static const char ready[] = "mmfuzz: fuzzing natively, seed 3\n";
	static const char *const rss[] = {
		"[    7.000000] mmfuzz: progress from the kernel's side\n",
		"[   30.100000] BUG: Bad rss-counter state mm:00000000a1b2c3d4 type:MM_SWAPENTS val:-1\n",
		"[   30.100001] BUG: Bad rss-counter state mm:00000000a1b2c3d4 type:MM_ANON",
		"PAGES val:1\n",
		"[  35s] progs 120 (4.0/s) calls 2000\n",
		"[  40s] progs 140 (4.0/s) calls 2300\n",
	};
	static const char *const warn[] = {
		"[    1.000000] WARNING: CPU: 0 PID: 1 at mm/swapfile.c:100 swap_free+0x1/0x2\n",
		"[    1.000000] Modules linked in:\n",
		"[    1.000000] Call Trace:\n",
		"[    1.000000]  <TASK>\n",
		"[  12s] progs 40 (3.3/s)\n",
		"[    1.000000]  swap_free+0x1/0x2\n",
		"[    1.000000]  </TASK>\n",
		"[    1.000000] ---[ end trace 0000000000000000 ]---\n",
		"[  13s] progs 44 (3.3/s)\n",
	};
	static const char *const burst[] = {
		"[    5.000000] BUG: Bad page state in process mmfuzz  pfn:1234\n",
		"[    5.000000] page: refcount:0 mapcount:1 mapping:0000000000000000\n",
		"[    9.500000] zram: Added device: zram1\n",
	};
	/* printk and user space share the console: a line of each in one. */
	static const char *const amid[] = {
		"DATA CORRUPTION: garbage anon page after write\n",
		"\n",
		"REPORT: DATA CORRUPTION: garbage anon page after write (saved as /out/crashes/D",
		"ATA_CORRUPTION_garbage_anon_page_after_write-4f0c2a9e/re[   31.412087][    T1]",
		" BUG: Bad rss-counter state mm:00000000a1b2c3d4 type:MM_SWAPENTS val:-1\n",
		"port.0)\n",
		"# mmfuzz: executing program\n",
		"[  40s] progs 140 (4.0/s) calls 2300\n",
	};
	static const char *const oracle[] = {
		"DATA CORRUPTION: zeroed anon page after madvise(MADV_FREE)\n",
		"expected: 0x11 observed: 0x00\n",
		"[  20s] progs 80\n",
		"[  25s] progs 90\n",
	};
	struct mmf_finding f;
	size_t end;

	/*
	 * One-line reports: complete with a line of user space once the kernel
	 * printed nothing of it for a tenth of the settle time; not before.
	 */
	CHECK(taken_after(rss, 6, 10, &f, NULL) == -1, "taken within the grace");
	CHECK(taken_after(rss, 6, opts.settle_ms / 10, &f, NULL) == 4,
	      "Bad rss-counter state not taken at its end");
	CHECK(!strcmp(f.title, "BUG: Bad rss-counter state"), "title '%s'", f.title);
	CHECK(strstr(f.report, "MM_SWAPENTS val:-1") && !strstr(f.report, "progs 120"),
	      "report text not cut at its end: %s", f.report);
	CHECK(f.end == strlen(ready) + strlen(rss[0]) + strlen(rss[1]) + strlen(rss[2]) +
	      strlen(rss[3]), "end %zu: not before the progress line", f.end);
	mmf_finding_free(&f);
	/* A stack dump goes on past an interleaved line; ends at its end trace. */
	CHECK(taken_after(warn, 9, 10, &f, NULL) == 7, "WARNING not taken at its end trace");
	CHECK(!strcmp(f.title, "WARNING in swap_free"), "title '%s'", f.title);
	CHECK(strstr(f.report, "</TASK>"), "the stack after the interleaved line is missing");
	mmf_finding_free(&f);
	/* A later burst of kernel lines is not part of the report. */
	CHECK(taken_after(burst, 3, 10, &f, &end) == 2, "Bad page state not ended by a later burst");
	CHECK(f.end == end - strlen(burst[2]), "end %zu, expected %zu", f.end,
	      end - strlen(burst[2]));
	mmf_finding_free(&f);
	/* A kernel line amid the fuzzer's line for a report it saved is taken. */
	CHECK(taken_after(amid, 8, opts.settle_ms / 10, &f, NULL) == 5,
	      "Bad rss-counter state amid a line of user space not taken at its end");
	CHECK(f.title && !strcmp(f.title, "BUG: Bad rss-counter state"), "title '%s'", f.title);
	mmf_finding_free(&f);
	/* An oracle's report on the console is not taken, however long after. */
	CHECK(taken_after(oracle, 4, opts.settle_ms / 10, &f, NULL) == -1,
	      "an oracle report taken from the console");
}

/*
 * Every real report of the corpus, fed whole while the fuzzer goes on
 * printing: if it is taken before the guest's death or silence, it has
 * the title it has whole. 748's Rust panic is titled by lines the kernel
 * prints after the oops's end trace: cut there, it is the oops.
 */
static void test_corpus_cut(void)
{
	static const char *const skip[] = { "748" };
	DIR *d = opendir("tests/data/kernel-reports");
	int files = 0, taken = 0, wrong = 0;
	struct dirent *e;

	CHECK(d, "tests/data/kernel-reports: %s", strerror(errno));
	while ((e = readdir(d))) {
		struct mmf_monitor *m;
		struct mmf_finding f;
		char path[512], title[512], *log;
		uint64_t now = 0;
		bool skipped = false;
		int got = 0;

		for (size_t i = 0; i < ARRAY_SIZE(skip); i++)
			skipped |= !strcmp(e->d_name, skip[i]);
		if (e->d_name[0] < '0' || e->d_name[0] > '9' || skipped)
			continue;
		snprintf(path, sizeof(path), "tests/data/kernel-reports/%s", e->d_name);
		log = mmf_read_file(path, NULL);
		skipped = !log || !strstr(log, "TITLE: ");	/* a log with no report */
		free(log);
		if (skipped)
			continue;
		log = console_of(path, title, sizeof(title));
		m = mmf_monitor_new(&opts, 0);
		mmf_monitor_feed(m, opts.ready, strlen(opts.ready), now);
		mmf_monitor_feed(m, "\n", 1, now);
		/* As the kernel prints: a line a millisecond. */
		for (char *p = log, *nl; *p; p = nl + 1) {
			nl = strchrnul(p, '\n');
			mmf_monitor_feed(m, p, nl - p, now += 1);
			mmf_monitor_feed(m, "\n", 1, now);
			if (!*nl)
				break;
		}
		for (int i = 0; i < 5 && !got; i++) {
			mmf_monitor_feed(m, "[  10s] progs 5\n", 16, now += opts.settle_ms / 20);
			got = mmf_monitor_poll(m, now, false, &f);
		}
		if (got && strcmp(f.title, title) && f.kind == MMF_FOUND_REPORT) {
			printf("%s: cut as '%s', whole it is '%s'\n", path, f.title, title);
			wrong++;
		}
		if (got)
			mmf_finding_free(&f);
		files++;
		taken += got;
		mmf_monitor_free(m);
		free(log);
	}
	closedir(d);
	CHECK(!wrong, "%d of %d reports cut before their end", wrong, taken);
	CHECK(files > 300 && taken > files / 5, "%d reports, %d taken early", files, taken);
	printf("# %d corpus reports, %d taken at their end while the fuzzer printed on\n", files,
	       taken);
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

/* A guest whose fuzzer ended and that powered off has nothing to report. */
static void test_ended(void)
{
	static const char ended[] = "mmfuzz-init: mmfuzz exited with status 0\n"
				    "mmfuzz-init: powering off\n";
	const char *ready = "mmfuzz: fuzzing natively, seed 2\n";
	struct mmf_monitor *m = mmf_monitor_new(&opts, 0);
	struct mmf_finding f;

	/* Before the fuzzer started, the same line is a failed boot's. */
	mmf_monitor_feed(m, ended, strlen(ended), 10);
	CHECK(mmf_monitor_poll(m, 20, true, &f) == 1 && f.kind == MMF_FOUND_LOST,
	      "an end before the start is not lost");
	mmf_finding_free(&f);
	mmf_monitor_free(m);
	m = mmf_monitor_new(&opts, 0);
	mmf_monitor_feed(m, ready, strlen(ready), 10);
	mmf_monitor_feed(m, ended, strlen(ended), 20);
	CHECK(!mmf_monitor_poll(m, 30, false, &f), "an end while alive is a finding");
	CHECK(mmf_monitor_poll(m, 30, true, &f) == 1 && f.kind == MMF_FOUND_END,
	      "a death after the fuzzer ended is kind %d", f.kind);
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

static const struct tap_test tests[] = {
	TAP_TEST(test_report_while_fuzzing),
	TAP_TEST(test_nonfatal_reports),
	TAP_TEST(test_corpus_cut),
	TAP_TEST(test_boot_crash),
	TAP_TEST(test_hang_and_lost),
	TAP_TEST(test_ended),
	TAP_TEST(test_marker_split_across_feeds),
};

int main(void)
{
	return tap_run(tests);
}
