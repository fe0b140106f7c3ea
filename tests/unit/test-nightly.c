// SPDX-License-Identifier: GPL-2.0
/*
 * A nightly store's history from its nights' records: each bug's nights,
 * first and last, and its state after the newest night (new, still
 * happening, quiet, likely fixed with the night it went missing); a night
 * killed before its record is left out; the dashboard has a plot point
 * per night and a row per bug, and bugs seen in corrupted reports only in
 * a table of their own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nightly/nightly.h"
#include "store/store.h"
#include "tap.h"
#include "util/util.h"

static char store[] = "/tmp/mmfuzz-test-nightly.XXXXXX";

/* A night of store s: its record and its bugs file ("count\tnew\ttitle" lines). */
static void night_in(const char *s, const char *id, int programs, const char *bugs)
{
	char *dir = mmf_xasprintf("%s/nights/%s", s, id), *path, *text;

	CHECK(!mmf_mkdir_p(dir, 0755), "mkdir %s", dir);
	text = mmf_xasprintf("night: %s\nkernel: x86_64 6.12.118\ncommit: abc\nconfig: 1234\n"
			     "programs: %d\nprograms_s: %.1f\ncoverage: 100\nfindings: 2\n",
			     id, programs, programs / 60.0);
	path = mmf_xasprintf("%s/night", dir);
	CHECK(!mmf_write_file_atomic(path, text, strlen(text)), "%s", path);
	free(path);
	path = mmf_xasprintf("%s/bugs", dir);
	CHECK(!mmf_write_file_atomic(path, bugs, strlen(bugs)), "%s", path);
	free(path);
	free(text);
	free(dir);
}

static void night(const char *id, int programs, const char *bugs)
{
	night_in(store, id, programs, bugs);
}

static const struct mmf_bug_history *find(const struct mmf_history *h, const char *title)
{
	for (int i = 0; i < h->nr_bugs; i++)
		if (!strcmp(h->bugs[i].title, title))
			return &h->bugs[i];
	return NULL;
}

static void test_states(void)
{
	struct mmf_history h;
	const struct mmf_bug_history *b;
	struct strbuf sb;
	char err[256], *killed;

	night("20261201T000000Z", 600, "3\t1\tBUG: old\n1\t1\tBUG: gone\n");
	night("20261202T000000Z", 700, "2\t0\tBUG: old\n1\t1\tBUG: quiet\n");
	/* Killed before its record: no night file. */
	killed = mmf_xasprintf("%s/nights/20261202T120000Z", store);
	CHECK(!mmf_mkdir_p(killed, 0755), "mkdir %s", killed);
	free(killed);
	night("20261203T000000Z", 800, "5\t0\tBUG: old\n1\t1\tBUG: fresh\n");
	CHECK(!mmf_history_load(store, 2, &h, err, sizeof(err)), "%s", err);
	CHECK(h.nr_nights == 3, "%d nights", h.nr_nights);
	CHECK(h.nights[2].programs == 800 && !strcmp(h.nights[2].commit, "abc"), "record");
	CHECK(h.nr_bugs == 4, "%d bugs", h.nr_bugs);

	b = find(&h, "BUG: old");
	CHECK(b && b->state == MMF_BUG_HAPPENING && b->nights == 3 && b->count == 10, "old");
	CHECK(!strcmp(b->first, "20261201T000000Z") && !strcmp(b->last, "20261203T000000Z"),
	      "old: %s %s", b->first, b->last);
	b = find(&h, "BUG: fresh");
	CHECK(b && b->state == MMF_BUG_NEW && b->nights == 1, "fresh");
	b = find(&h, "BUG: quiet");
	CHECK(b && b->state == MMF_BUG_QUIET && b->missed == 1, "quiet");
	CHECK(!strcmp(b->missing, "20261203T000000Z"), "quiet missing since %s", b->missing);
	b = find(&h, "BUG: gone");
	CHECK(b && b->state == MMF_BUG_FIXED && b->missed == 2, "gone");
	CHECK(!strcmp(b->missing, "20261202T000000Z"), "gone missing since %s", b->missing);
	mmf_sb_init(&sb);
	mmf_bug_state_text(b, &sb);
	CHECK(!strcmp(sb.buf, "not seen for 2 nights (likely fixed)"), "'%s'", sb.buf);
	mmf_sb_free(&sb);
	/* Newest last seen first. */
	CHECK(!strcmp(h.bugs[h.nr_bugs - 1].title, "BUG: gone"), "order: %s",
	      h.bugs[h.nr_bugs - 1].title);

	CHECK(!mmf_dashboard_write(store, &h, err, sizeof(err)), "%s", err);
	{
		char *path = mmf_xasprintf("%s/index.html", store);
		char *page = mmf_read_file(path, NULL), *p = page;
		int plots = 0, rows = 0;

		CHECK(page, "no page");
		while ((p = strstr(p, "data-points=\"3\"")))
			plots++, p++;
		for (p = page; (p = strstr(p, "<tr class=\"bug ")); p++)
			rows++;
		CHECK(plots == 4 && rows == 4, "%d plots, %d rows", plots, rows);
		CHECK(strstr(page, "data-state=\"fixed\""), "no fixed bug");
		free(page);
		free(path);
	}
	mmf_history_free(&h);
}

static void test_corrupted(void)
{
	static const char *const titles[] = { "BUG: whole", "BUG: cut short" };
	char *dir = mmf_xasprintf("%s/corrupted", store), *crashes, *path, *page, *sep;
	struct mmf_history h;
	char err[256];

	crashes = mmf_xasprintf("%s/crashes", dir);
	for (int i = 0; i < 2; i++) {
		struct mmf_crash c = { .title = titles[i], .report = "r\n", .corrupted = i };

		CHECK(!mmf_store_add(crashes, &c, NULL), "%s", mmf_store_err());
	}
	night_in(dir, "20261201T000000Z", 60, "1\t1\tBUG: whole\n1\t1\tBUG: cut short\n");
	CHECK(!mmf_history_load(dir, 3, &h, err, sizeof(err)), "%s", err);
	CHECK(!mmf_dashboard_write(dir, &h, err, sizeof(err)), "%s", err);
	path = mmf_xasprintf("%s/index.html", dir);
	page = mmf_read_file(path, NULL);
	CHECK(page, "no page");
	sep = strstr(page, "<table id=\"corrupted\">");
	CHECK(sep, "no table of corrupted reports");
	*sep = '\0';
	CHECK(strstr(page, "BUG: whole") && !strstr(page, "BUG: cut short") &&
	      strstr(sep + 1, "BUG: cut short") && !strstr(sep + 1, "BUG: whole"),
	      "the corrupted report's bug is not kept apart");
	free(page);
	free(path);
	mmf_history_free(&h);
	free(crashes);
	free(dir);
}

static void test_empty(void)
{
	struct mmf_history h;
	char err[256];

	CHECK(!mmf_history_load("/nonexistent", 3, &h, err, sizeof(err)), "%s", err);
	CHECK(h.nr_nights == 0 && h.nr_bugs == 0, "history of nothing");
	mmf_history_free(&h);
}

int main(void)
{
	static const struct tap_test tests[] = { TAP_TEST(test_states), TAP_TEST(test_corrupted),
						 TAP_TEST(test_empty) };

	return tap_run_in(tests, store);
}
