// SPDX-License-Identifier: GPL-2.0
/*
 * The crash store: counting, keep limit, times, exact titles, lookup,
 * reproducers, the HTML page; many writers at once lose nothing, and a
 * writer SIGKILLed at any point leaves no torn meta, no half file under a
 * final name, and every earlier occurrence as it was.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "store/store.h"
#include "tap.h"
#include "util/rand.h"
#include "util/util.h"

#define WRITERS		8
#define TITLES		3
#define PER_TITLE	200
#define KILL_ROUNDS	100

static char *tmpdir, *diskdir;
static pid_t main_pid;

/* Also after a failed CHECK: the stores are big. Not from a child. */
static void remove_dirs(void)
{
	char *dirs[] = { tmpdir, diskdir };

	if (getpid() != main_pid)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		char *rm;

		if (!dirs[i])
			continue;
		rm = mmf_xasprintf("rm -rf '%s'", dirs[i]);
		if (system(rm))
			fprintf(stderr, "%s failed\n", rm);
		free(rm);
	}
}

static char *store(const char *name)
{
	return mmf_xasprintf("%s/%s", tmpdir, name);
}

static char *file_in(const char *dir, const char *bug, const char *name)
{
	char *path = mmf_xasprintf("%s/%s/%s", dir, bug, name);
	char *text = mmf_read_file(path, NULL);

	free(path);
	return text;
}

static bool exists(const char *dir, const char *bug, const char *name)
{
	char *path = mmf_xasprintf("%s/%s/%s", dir, bug, name);
	bool ok = !access(path, F_OK);

	free(path);
	return ok;
}

/*
 * The text of one file of occurrence (w, k): a header naming it, filler
 * that depends on it, and an end mark, so a cut or mixed file shows.
 */
static char *occ_text_size(const char *kind, int w, int k, size_t lines)
{
	char line[64];
	struct strbuf sb;
	int n;

	mmf_sb_init(&sb);
	mmf_sb_printf(&sb, "%s w=%d k=%d\n", kind, w, k);
	n = snprintf(line, sizeof(line), "%08x %s %d/%d\n", (w * 7919 + k) * 31, kind, w, k);
	for (size_t i = 0; i < lines; i++)
		mmf_sb_add(&sb, line, n);
	mmf_sb_puts(&sb, "END\n");
	return mmf_sb_detach(&sb);
}

static char *occ_text(const char *kind, int w, int k)
{
	return occ_text_size(kind, w, k, 64);
}

/* Is text a whole occ_text() of kind? Sets w and k. */
static bool occ_ok_size(const char *text, const char *kind, int *w, int *k, size_t lines)
{
	char fmt[64], *want;
	bool ok;

	snprintf(fmt, sizeof(fmt), "%s w=%%d k=%%d\n", kind);
	if (!text || sscanf(text, fmt, w, k) != 2)
		return false;
	want = occ_text_size(kind, *w, *k, lines);
	ok = !strcmp(text, want);
	free(want);
	return ok;
}

static bool occ_ok(const char *text, const char *kind, int *w, int *k)
{
	return occ_ok_size(text, kind, w, k, 64);
}

static void test_add_count(void)
{
	char *dir = store("basic"), *t, *m;
	struct mmf_crash c = {
		.title = "KASAN: use-after-free Read in swap_free", .report = "report text\n",
		.progs = "prog\n", .kernel = "6.1.0 #1 SMP", .arch = "x86_64",
	};
	struct mmf_store_added a;

	CHECK(!mmf_store_add(dir, &c, &a), "%s", mmf_store_err());
	CHECK(a.index == 0 && a.count == 1 && a.new_bug, "index %d count %ld", a.index, a.count);
	CHECK(!strncmp(a.name, "KASAN_use-after-free_Read_in_swap_free-", 39) &&
	      strlen(a.name) == 39 + 8, "name %s", a.name);
	c.report_sym = "symbolized\n";
	c.log = "log\n";
	CHECK(!mmf_store_add(dir, &c, &a), "%s", mmf_store_err());
	CHECK(a.index == 1 && a.count == 2 && !a.new_bug, "index %d count %ld", a.index, a.count);
	t = file_in(dir, a.name, "title");
	CHECK(t && !strcmp(t, "KASAN: use-after-free Read in swap_free\n"), "title '%s'", t);
	free(t);
	m = file_in(dir, a.name, "meta");
	CHECK(m && strstr(m, "count: 2\n") && strstr(m, "arch: x86_64\n") &&
	      strstr(m, "kernel: 6.1.0 #1 SMP\n") && strstr(m, "repro: none\n"), "meta %s", m);
	free(m);
	CHECK(exists(dir, a.name, "report.0") && exists(dir, a.name, "progs.0") &&
	      !exists(dir, a.name, "log.0") && !exists(dir, a.name, "report.0.sym"),
	      "occurrence 0 files");
	CHECK(exists(dir, a.name, "report.1.sym") && exists(dir, a.name, "log.1"),
	      "occurrence 1 files");
	/* A second arch joins the set; the same one is not repeated. */
	c.arch = "arm64";
	CHECK(!mmf_store_add(dir, &c, &a), "%s", mmf_store_err());
	c.arch = "x86_64";
	CHECK(!mmf_store_add(dir, &c, &a), "%s", mmf_store_err());
	m = file_in(dir, a.name, "meta");
	CHECK(m && strstr(m, "arch: x86_64 arm64\n") && strstr(m, "count: 4\n"), "meta %s", m);
	free(m);
	free(dir);
}

static void test_keep_limit(void)
{
	char *dir = store("keep");
	struct mmf_crash c = { .title = "WARNING in foo", .report = "r\n", .progs = "p\n" };
	struct mmf_store_added a;
	struct mmf_bug *bugs;
	int n;

	for (int i = 0; i < 5; i++) {
		CHECK(!mmf_store_add_keep(dir, &c, 3, &a), "%s", mmf_store_err());
		CHECK(a.index == (i < 3 ? i : -1) && a.count == i + 1, "add %d: index %d count %ld",
		      i, a.index, a.count);
	}
	CHECK(!exists(dir, a.name, "report.3") && !exists(dir, a.name, "progs.3"), "kept past 3");
	/* The default limit, MMF_STORE_KEEP. */
	c.title = "WARNING in bar";
	for (int i = 0; i < MMF_STORE_KEEP + 3; i++)
		CHECK(!mmf_store_add(dir, &c, &a), "%s", mmf_store_err());
	CHECK(a.index == -1 && a.count == MMF_STORE_KEEP + 3, "index %d count %ld", a.index,
	      a.count);
	n = mmf_store_list(dir, &bugs);
	CHECK(n == 2, "%d bugs", n);
	for (int i = 0; i < n; i++) {
		int want = strcmp(bugs[i].title, "WARNING in foo") ? MMF_STORE_KEEP : 3;

		CHECK(bugs[i].nr_occ == want, "%s: %d kept", bugs[i].title, bugs[i].nr_occ);
		CHECK(bugs[i].occ[want - 1].n == want - 1 &&
		      bugs[i].occ[0].files == (MMF_OCC_REPORT | MMF_OCC_PROGS), "slots");
	}
	mmf_bugs_free(bugs, n);
	free(dir);
}

static void test_times(void)
{
	char *dir = store("times"), *m;
	struct mmf_crash c = { .title = "BUG: Bad page state", .report = "r\n", .arch = "x86_64" };
	struct mmf_store_added a;
	struct mmf_bug *bugs;
	int n;

	/* Guests report late: occurrences come out of order. The earliest says what found it. */
	c.time = 1650000000;
	c.kernel = "middle";
	c.origin = "fuzzer";
	CHECK(!mmf_store_add(dir, &c, &a), "%s", mmf_store_err());
	c.time = 1600000000;	/* 2020-09-13T12:26:40Z */
	c.kernel = "oldest";
	c.origin = "seed corpus/a.mmf";
	CHECK(!mmf_store_add(dir, &c, &a), "%s", mmf_store_err());
	c.time = 1700000000;	/* 2023-11-14T22:13:20Z */
	c.kernel = "newest";
	c.origin = "fuzzer";
	CHECK(!mmf_store_add(dir, &c, &a), "%s", mmf_store_err());
	c.time = 1680000000;
	c.kernel = "late";
	c.origin = NULL;
	CHECK(!mmf_store_add(dir, &c, &a), "%s", mmf_store_err());
	m = file_in(dir, a.name, "meta");
	CHECK(m && strstr(m, "first_seen: 2020-09-13T12:26:40Z\n") &&
	      strstr(m, "last_seen: 2023-11-14T22:13:20Z\n") && strstr(m, "kernel: newest\n") &&
	      strstr(m, "found_by: seed corpus/a.mmf\n"), "meta %s", m);
	free(m);
	/* list: newest last_seen first. */
	c.title = "BUG: older";
	c.time = 1620000000;
	CHECK(!mmf_store_add(dir, &c, &a), "%s", mmf_store_err());
	m = file_in(dir, a.name, "meta");
	CHECK(m && !strstr(m, "found_by"), "found_by without an origin: %s", m);
	free(m);
	c.title = "BUG: now";
	c.time = 0;
	CHECK(!mmf_store_add(dir, &c, &a), "%s", mmf_store_err());
	n = mmf_store_list(dir, &bugs);
	CHECK(n == 3, "%d bugs", n);
	CHECK(!strcmp(bugs[0].title, "BUG: now") && !strcmp(bugs[1].title, "BUG: Bad page state") &&
	      !strcmp(bugs[2].title, "BUG: older"), "order %s, %s, %s", bugs[0].title,
	      bugs[1].title, bugs[2].title);
	CHECK(!strcmp(bugs[1].first_seen, "2020-09-13T12:26:40Z") && bugs[1].count == 4,
	      "first %s count %ld", bugs[1].first_seen, bugs[1].count);
	mmf_bugs_free(bugs, n);
	free(dir);
}

static void test_titles(void)
{
	static const char *const titles[] = {
		"KASAN: slab-out-of-bounds in mm/swapfile.c/swap_free",
		"../../etc/passwd",
		".hidden title",
		"DATA CORRUPTION: stale anon page after madvise(MADV_FREE) \xff\xfe\x80 not utf-8",
		"WARNING in \xc3\xa9t\xc3\xa9 \xe2\x80\x94 <b>&amp;</b> 'q' \"dq\"",
		"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e",
	};
	char *dir = store("titles");
	struct mmf_store_added a;
	struct mmf_bug *bugs;
	int n;

	for (size_t i = 0; i < ARRAY_SIZE(titles); i++) {
		struct mmf_crash c = { .title = titles[i], .report = "r\n" };
		char *t, *want = mmf_xasprintf("%s\n", titles[i]);

		CHECK(!mmf_store_add(dir, &c, &a), "%s: %s", titles[i], mmf_store_err());
		/* The name stays one component inside the store, not hidden. */
		CHECK(!strchr(a.name, '/') && a.name[0] != '.' && a.name[0], "name '%s'", a.name);
		t = file_in(dir, a.name, "title");
		CHECK(t && !strcmp(t, want), "title '%s' stored as '%s'", titles[i], t);
		free(t);
		free(want);
	}
	/* Newlines and surrounding space are not part of a title. */
	{
		struct mmf_crash c = { .title = "  WARNING in foo\r\n", .report = "r\n" };
		char *t;

		CHECK(!mmf_store_add(dir, &c, &a), "%s", mmf_store_err());
		c.title = "WARNING in foo";
		CHECK(!mmf_store_add(dir, &c, &a) && a.count == 2, "same bug, count %ld", a.count);
		t = file_in(dir, a.name, "title");
		CHECK(t && !strcmp(t, "WARNING in foo\n"), "title '%s'", t);
		free(t);
		c.title = "first line\r\n\nsecond line\n";
		CHECK(!mmf_store_add(dir, &c, &a), "%s", mmf_store_err());
		t = file_in(dir, a.name, "title");
		CHECK(t && !strcmp(t, "first line second line\n"), "title '%s'", t);
		free(t);
		c.title = " \n\t";
		CHECK(mmf_store_add(dir, &c, &a) == -EINVAL, "blank title accepted");
		c.title = NULL;
		CHECK(mmf_store_add(dir, &c, &a) == -EINVAL, "no title accepted");
	}
	n = mmf_store_list(dir, &bugs);
	CHECK(n == (int)ARRAY_SIZE(titles) + 2, "%d bugs", n);
	for (size_t i = 0; i < ARRAY_SIZE(titles); i++) {
		int f = mmf_store_find(bugs, n, titles[i]);

		CHECK(f >= 0 && !strcmp(bugs[f].title, titles[i]), "find '%s': %d", titles[i], f);
	}
	/* A directory name (as the shell completes it) and unique prefixes. */
	CHECK(mmf_store_find(bugs, n, "first line") >= 0, "unique prefix");
	{
		char *key = mmf_xasprintf("%s/", bugs[0].name);

		CHECK(mmf_store_find(bugs, n, key) == 0, "directory name");
		free(key);
	}
	CHECK(mmf_store_find(bugs, n, "W") == -ENOTUNIQ, "ambiguous prefix");
	CHECK(mmf_store_find(bugs, n, "nothing like it") == -ENOENT, "unknown title");
	mmf_bugs_free(bugs, n);
	free(dir);
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The parser's alternative titles (tests/data/kernel-reports/472: a KASAN
 * report is also "bad-access in" its function, as a GPF there is).
 */
/* The bug's corrupted reports as the store lists them. */
static void check_corrupted(const char *dir, const char *title, long corrupted, bool only)
{
	struct mmf_bug *bugs;
	int n = mmf_store_list(dir, &bugs), k = n > 0 ? mmf_store_find(bugs, n, title) : -1;

	CHECK(k >= 0, "'%s' is not listed", title);
	CHECK(bugs[k].corrupted == corrupted && mmf_bug_corrupted(&bugs[k]) == only,
	      "'%s': %ld corrupted of %ld", title, bugs[k].corrupted, bugs[k].count);
	mmf_bugs_free(bugs, n);
}

static void test_alt_titles(void)
{
	static const char *const kasan_alt[] = { "bad-access in swap_free" };
	char *dir = store("alt"), *alt;
	struct mmf_crash c = { .title = "KASAN: use-after-free Read in swap_free",
			       .report = "r\n", .alt_titles = kasan_alt, .nr_alt = 1 };
	struct mmf_store_added a, b;

	CHECK(!mmf_store_add(dir, &c, &a) && a.new_bug, "%s", mmf_store_err());
	c.title = "general protection fault in swap_free";
	CHECK(!mmf_store_add(dir, &c, &b), "%s", mmf_store_err());
	CHECK(!b.new_bug && b.count == 2 && !strcmp(a.name, b.name),
	      "GPF not counted to the KASAN bug: %s, count %ld", b.name, b.count);
	CHECK(!strcmp(b.title, "KASAN: use-after-free Read in swap_free"),
	      "counted to a bug of another title: '%s'", b.title);
	alt = file_in(dir, a.name, "alt");
	CHECK(alt && !strcmp(alt, "bad-access in swap_free\n"
			     "general protection fault in swap_free\n"), "alt '%s'", alt);
	free(alt);
	/* Under a title that is only an alternative, without alternatives. */
	c.title = "general protection fault in swap_free";
	c.nr_alt = 0;
	CHECK(!mmf_store_add(dir, &c, &b) && !b.new_bug && b.count == 3, "count %ld", b.count);
	/* A corrupted report's alternatives are not trusted. */
	c.title = "BUG: unable to handle kernel paging request in swap_free";
	c.nr_alt = 1;
	c.corrupted = true;
	CHECK(!mmf_store_add(dir, &c, &b) && b.new_bug, "corrupted report merged");
	c.corrupted = false;
	c.title = "WARNING in swap_free";
	c.nr_alt = 0;
	CHECK(!mmf_store_add(dir, &c, &b) && b.new_bug, "unrelated title merged");
	check_corrupted(dir, "BUG: unable to handle kernel paging request in swap_free", 1, true);
	check_corrupted(dir, "WARNING in swap_free", 0, false);
	/* Seen once whole: no longer a corrupted report's bug alone. */
	c.title = "BUG: unable to handle kernel paging request in swap_free";
	CHECK(!mmf_store_add(dir, &c, &b) && !b.new_bug, "%s", mmf_store_err());
	check_corrupted(dir, c.title, 1, false);
	free(dir);
}

/*
 * One program's reports are one bug: a later report with the first's
 * title as related counts to it, its title joins alt (not a corrupted
 * one's), and seen alone later it still counts there; a related title
 * the store lacks leaves the report its own bug.
 */
static void test_related(void)
{
	char *dir = store("related"), *alt;
	struct mmf_crash c = { .title = "DATA CORRUPTION: misplaced anon page", .report = "r\n" };
	struct mmf_store_added a, b;
	struct mmf_store_group g = { 0 };

	CHECK(!mmf_store_add(dir, &c, &a) && a.new_bug && !a.related, "%s", mmf_store_err());
	mmf_store_group_saved(&g, c.title, &a, 42, 1000);
	CHECK(!mmf_store_group_related(&g, 43, 2000), "another program grouped");
	CHECK(!mmf_store_group_related(&g, 42, 1000 + MMF_STORE_GROUP_MS + 1), "too late grouped");
	c.related = mmf_store_group_related(&g, 42, 2000);
	CHECK(c.related && !strcmp(c.related, "DATA CORRUPTION: misplaced anon page"),
	      "not grouped: %s", c.related);
	c.title = "kernel BUG in do_swap_page";
	CHECK(!mmf_store_add(dir, &c, &b) && !b.new_bug && b.related && b.count == 2 &&
	      !strcmp(a.name, b.name), "not counted to the first: %s, count %ld", b.name, b.count);
	CHECK(!strcmp(b.title, "DATA CORRUPTION: misplaced anon page"), "bug title '%s'", b.title);
	mmf_store_group_saved(&g, c.title, &b, 42, 2000);
	c.title = "kernel BUG in corrupted";
	c.corrupted = true;
	c.related = mmf_store_group_related(&g, 42, 3000);
	CHECK(!mmf_store_add(dir, &c, &b) && b.related && b.count == 3, "corrupted not counted");
	alt = file_in(dir, a.name, "alt");
	CHECK(alt && !strcmp(alt, "kernel BUG in do_swap_page\n"), "alt '%s'", alt);
	free(alt);
	c = (struct mmf_crash){ .title = "kernel BUG in do_swap_page", .report = "r\n" };
	CHECK(!mmf_store_add(dir, &c, &b) && !b.new_bug && !strcmp(a.name, b.name),
	      "the related title alone is a bug of its own");
	c = (struct mmf_crash){ .title = "WARNING in zap_pte_range", .report = "r\n",
				.related = "no such bug" };
	CHECK(!mmf_store_add(dir, &c, &b) && b.new_bug && !b.related, "counted to no bug");
	mmf_store_group_free(&g);
	free(dir);
}

/* Two titles that get the same directory name still get two bugs. */
static void test_collision(void)
{
	enum { BITS = 18 };
	char **names = mmf_xcalloc(1 << BITS, sizeof(*names)), *dir = store("collide");
	char t1[BITS + 3], t2[BITS + 3];
	struct mmf_store_added a1, a2;
	struct mmf_bug *bugs;
	int found = 0, n;

	/* Titles that differ only where the name has '_': one slug, 2^18 hashes. */
	for (int i = 0; i < 1 << BITS; i++) {
		char t[BITS + 3];

		t[0] = 'x';
		for (int b = 0; b < BITS; b++)
			t[1 + b] = i >> b & 1 ? ':' : ' ';
		t[BITS + 1] = 'y';
		t[BITS + 2] = '\0';
		char *name = mmf_store_dir_name(t);

		names[i] = mmf_xasprintf("%s\t%s", name, t);
		free(name);
	}
	qsort(names, 1 << BITS, sizeof(*names), by_str);
	for (int i = 1; i < 1 << BITS && !found; i++) {
		size_t l = strcspn(names[i], "\t");

		if (!strncmp(names[i], names[i - 1], l + 1)) {
			strcpy(t1, names[i - 1] + l + 1);
			strcpy(t2, names[i] + l + 1);
			found = 1;
		}
	}
	for (int i = 0; i < 1 << BITS; i++)
		free(names[i]);
	free(names);
	CHECK(found, "no two titles with one name among 2^%d (birthday bound: ~8 expected)", BITS);
	{
		struct mmf_crash c1 = { .title = t1, .report = "one\n" };
		struct mmf_crash c2 = { .title = t2, .report = "two\n" };

		CHECK(!mmf_store_add(dir, &c1, &a1) && !mmf_store_add(dir, &c2, &a2) &&
		      !mmf_store_add(dir, &c2, &a2), "%s", mmf_store_err());
	}
	CHECK(strcmp(a1.name, a2.name) && a2.count == 2 && a1.count == 1, "%s %s", a1.name,
	      a2.name);
	CHECK(!mmf_store_set_repro(dir, t2, "prog", "p\n", NULL), "%s", mmf_store_err());
	n = mmf_store_list(dir, &bugs);
	CHECK(n == 2, "%d bugs", n);
	for (int i = 0; i < n; i++)
		CHECK(!strcmp(bugs[i].repro, strcmp(bugs[i].title, t2) ? "none" : "prog"),
		      "repro went to the wrong bug");
	mmf_bugs_free(bugs, n);
	free(dir);
}

static void test_repro(void)
{
	char *dir = store("repro"), *m, *p, *copy, *cmd;
	struct mmf_crash c = { .title = "BUG: soft lockup in foo", .report = "r\n" };
	struct mmf_store_added a;
	struct mmf_bug *bugs;
	int n;

	CHECK(!mmf_store_add(dir, &c, &a), "%s", mmf_store_err());
	CHECK(!mmf_store_set_repro(dir, c.title, "prog", "mmap()\n", NULL), "%s",
	      mmf_store_err());
	m = file_in(dir, a.name, "meta");
	CHECK(m && strstr(m, "repro: prog\n") && strstr(m, "count: 1\n"), "meta %s", m);
	free(m);
	/* A second reproducer goes beside the first. */
	CHECK(!mmf_store_set_repro(dir, c.title, "c", "munmap()\n", "int main(void) {}\n"),
	      "%s", mmf_store_err());
	p = file_in(dir, a.name, "repro.prog");
	CHECK(p && !strcmp(p, "mmap()\n"), "first reproducer changed: %s", p);
	free(p);
	p = file_in(dir, a.name, "repro.1.prog");
	CHECK(p && !strcmp(p, "munmap()\n"), "second reproducer: %s", p);
	free(p);
	n = mmf_store_list(dir, &bugs);
	CHECK(n == 1 && !strcmp(bugs[0].repro, "c") && bugs[0].nr_repro == 3 &&
	      !strcmp(bugs[0].repro_files[0], "repro.prog") &&
	      !strcmp(bugs[0].repro_files[1], "repro.1.prog") &&
	      !strcmp(bugs[0].repro_files[2], "repro.c"), "list of reproducers");
	mmf_bugs_free(bugs, n);
	CHECK(mmf_store_set_repro(dir, "no such bug", "prog", "x\n", NULL) == -ENOENT,
	      "reproducer of an unknown bug");
	CHECK(strstr(mmf_store_err(), "no such bug"), "error: %s", mmf_store_err());
	CHECK(mmf_store_set_repro(dir, c.title, "\n", NULL, NULL) == -EINVAL, "empty status");
	/* A bug's directory copied out of its store, under another name. */
	copy = mmf_xasprintf("%s-copied-bug", dir);
	cmd = mmf_xasprintf("cp -r %s/%s %s", dir, a.name, copy);
	CHECK(!system(cmd), "%s", cmd);
	CHECK(!mmf_store_set_repro(copy, c.title, "prog", "mremap()\n", NULL), "%s",
	      mmf_store_err());
	p = file_in(copy, ".", "repro.2.prog");
	CHECK(p && !strcmp(p, "mremap()\n"), "reproducer in the copied directory: %s", p);
	free(p);
	CHECK(mmf_store_set_repro(copy, "another title", "prog", "x\n", NULL) == -ENOENT,
	      "a copied directory of another bug");
	p = file_in(dir, ".", "lock");
	CHECK(!p, "a lock file in the store's root");
	free(p);
	free(cmd);
	free(copy);
	free(dir);
}

static void test_errors(void)
{
	char *file = store("a-file"), *under = mmf_xasprintf("%s/store", file);
	struct mmf_crash c = { .title = "BUG: x", .report = "r\n" };
	struct mmf_bug *bugs;

	CHECK(!mmf_write_file_atomic(file, "x", 1), "setup");
	CHECK(mmf_store_add(under, &c, NULL) == -ENOTDIR, "add under a file");
	CHECK(strstr(mmf_store_err(), "cannot create") && strstr(mmf_store_err(), under),
	      "error: %s", mmf_store_err());
	CHECK(mmf_store_list("/nonexistent/store", &bugs) == -ENOENT && !bugs, "list missing");
	CHECK(!strcmp(mmf_store_err(), "/nonexistent/store: No such file or directory"),
	      "error: %s", mmf_store_err());
	free(file);
	free(under);
}

static void test_html(void)
{
	char *dir = store("html"), *page, *path;
	struct mmf_crash c = {
		.title = "WARNING in <b>f</b> & 'g' \"h\" \xff", .report = "r\n", .progs = "p\n",
		.log = "l\n", .arch = "x86_64", .kernel = "6.1 <k>",
	};
	struct mmf_store_added a;
	struct mmf_bug *bugs;
	struct strbuf sb;
	int n;

	CHECK(!mmf_store_add(dir, &c, &a), "%s", mmf_store_err());
	CHECK(!mmf_store_set_repro(dir, c.title, "prog", "x\n", NULL), "%s", mmf_store_err());
	n = mmf_store_list(dir, &bugs);
	mmf_sb_init(&sb);
	mmf_store_html(bugs, n, "../my store/", &sb);
	CHECK(strstr(sb.buf, "<td class=\"title\">WARNING in &lt;b&gt;f&lt;/b&gt; &amp; &#39;g&#39; "
			     "&quot;h&quot; &#xfffd;</td>"), "title cell: %s", sb.buf);
	CHECK(!strstr(sb.buf, "<b>") && strstr(sb.buf, "6.1 &lt;k&gt;"), "escaping");
	path = mmf_xasprintf("<a href=\"../my%%20store/%s/report.0\">report.0</a>", a.name);
	CHECK(strstr(sb.buf, path), "link %s", path);
	free(path);
	path = mmf_xasprintf("<a href=\"../my%%20store/%s/repro.prog\">repro.prog</a>", a.name);
	CHECK(strstr(sb.buf, path) && strstr(sb.buf, "<td class=\"count\">1</td>"), "repro link");
	free(path);
	mmf_sb_free(&sb);
	mmf_bugs_free(bugs, n);
	/* The file: relative links from wherever it is written. */
	path = mmf_xasprintf("%s/page/../page/index.html", tmpdir);
	CHECK(!mmf_mkdir_p(path, 0755) && !rmdir(path), "mkdir");
	CHECK(!mmf_store_html_file(dir, path, &n) && n == 1, "%s", mmf_store_err());
	page = mmf_read_file(path, NULL);
	free(path);
	path = mmf_xasprintf("href=\"../html/%s/log.0\"", a.name);
	CHECK(page && strstr(page, path), "link %s in page", path);
	free(page);
	free(path);
	CHECK(mmf_store_html_file(dir, "/nonexistent/dir/index.html", &n) < 0 &&
	      strstr(mmf_store_err(), "cannot write /nonexistent/dir/index.html"), "error: %s",
	      mmf_store_err());
	free(dir);
}

/* One writer process of the concurrency test: every add must succeed. */
static void writer(const char *dir, const char *const *titles, int w, int per_title)
{
	for (int k = 0; k < per_title; k++) {
		char *r = occ_text("report", w, k), *l = occ_text("log", w, k);
		char *p = occ_text("progs", w, k);

		for (int t = 0; t < TITLES; t++) {
			struct mmf_crash c = { .title = titles[t], .report = r, .log = l,
					       .progs = p, .arch = "x86_64" };

			if (mmf_store_add(dir, &c, NULL)) {
				fprintf(stderr, "writer %d: %s\n", w, mmf_store_err());
				_exit(1);
			}
		}
		free(r);
		free(l);
		free(p);
	}
	_exit(0);
}

/* Every kept occurrence whole, its three files of one occurrence; none twice. */
static void check_kept(const char *dir, const struct mmf_bug *b)
{
	bool *seen = mmf_xcalloc(WRITERS * PER_TITLE, 1);

	for (int i = 0; i < b->nr_occ; i++) {
		static const char *const kinds[] = { "report", "log", "progs" };
		int w0 = -1, k0 = -1;

		CHECK(b->occ[i].files == (MMF_OCC_REPORT | MMF_OCC_LOG | MMF_OCC_PROGS),
		      "%s: slot %d files %x", b->title, b->occ[i].n, b->occ[i].files);
		for (size_t f = 0; f < ARRAY_SIZE(kinds); f++) {
			char *name = mmf_xasprintf("%s.%d", kinds[f], b->occ[i].n);
			char *text = file_in(dir, b->name, name);
			int w, k;

			CHECK(occ_ok(text, kinds[f], &w, &k) && w < WRITERS && k < PER_TITLE,
			      "%s/%s is not whole", b->name, name);
			CHECK(f == 0 || (w == w0 && k == k0), "%s: slot %d mixes occurrences",
			      b->name, b->occ[i].n);
			w0 = w;
			k0 = k;
			free(name);
			free(text);
		}
		CHECK(!seen[w0 * PER_TITLE + k0], "occurrence %d/%d kept twice", w0, k0);
		seen[w0 * PER_TITLE + k0] = true;
	}
	free(seen);
}

/* WRITERS processes add per_title occurrences each to TITLES titles; adds/s. */
static double run_writers(const char *dir, int per_title)
{
	static const char *const titles[TITLES] = {
		"KASAN: use-after-free Read in swap_entry_free",
		"WARNING in folio_unmap_batch",
		"DATA CORRUPTION: zeroed anon page after madvise(MADV_FREE)",
	};
	struct mmf_bug *bugs;
	uint64_t t0 = mmf_now_ns();
	double secs;
	int n;

	for (int w = 0; w < WRITERS; w++) {
		pid_t pid = fork();

		CHECK(pid >= 0, "fork: %s", strerror(errno));
		if (!pid)
			writer(dir, titles, w, per_title);
	}
	for (int w = 0; w < WRITERS; w++) {
		int status;

		CHECK(wait(&status) > 0 && WIFEXITED(status) && !WEXITSTATUS(status),
		      "a writer failed");
	}
	secs = (mmf_now_ns() - t0) / 1e9;
	n = mmf_store_list(dir, &bugs);
	CHECK(n == TITLES, "%d bugs", n);
	for (int i = 0; i < n; i++) {
		CHECK(bugs[i].count == WRITERS * per_title, "%s: count %ld, want %d",
		      bugs[i].title, bugs[i].count, WRITERS * per_title);
		CHECK(bugs[i].nr_occ == MMF_STORE_KEEP, "%s: %d kept", bugs[i].title,
		      bugs[i].nr_occ);
		check_kept(dir, &bugs[i]);
	}
	mmf_bugs_free(bugs, n);
	return WRITERS * TITLES * per_title / secs;
}

/*
 * On tmpfs (the test's directory) the store's own cost shows; on a disk
 * each add waits for fsync, so a shorter run there gives its rate.
 */
static void test_concurrent(void)
{
	char *dir = store("concurrent");
	double mem, ondisk;

	mem = run_writers(dir, PER_TITLE);
	diskdir = mmf_xstrdup("/var/tmp/mmf-test-store.XXXXXX");
	CHECK(mkdtemp(diskdir), "mkdtemp %s: %s", diskdir, strerror(errno));
	ondisk = run_writers(diskdir, 2 * MMF_STORE_KEEP);
	printf("INFO: store: %d writers, %d titles: %.0f adds/s on %s, %.0f adds/s on %s\n",
	       WRITERS, TITLES, mem, tmpdir, ondisk, diskdir);
	free(dir);
}

/* A meta is whole: every key, each once, and the last line ends. */
static bool meta_whole(const char *m, long *count)
{
	static const char *const keys[] = {
		"count: ", "first_seen: ", "last_seen: ", "arch: ", "kernel: ", "repro: ",
	};
	const char *p = m;

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		if (strncmp(p, keys[i], strlen(keys[i])))
			return false;
		p = strchr(p, '\n');
		if (!p++)
			return false;
	}
	return *p == '\0' && sscanf(m, "count: %ld", count) == 1;
}

/*
 * The killed writer's files are big (long writes are where a kill would
 * leave half a file) and every add keeps its own (up to KILL_KEEP).
 */
#define KILL_LINES	4096
#define KILL_KEEP	400

/* Loops adding; tells the parent S before and D after each add. */
static void doomed_writer(const char *dir, int fd, int round)
{
	for (int k = 0;; k++) {
		char *r = occ_text_size("report", round, k, KILL_LINES);
		char *p = occ_text_size("progs", round, k, KILL_LINES);
		struct mmf_crash c = { .title = "BUG: killed writer", .report = r, .progs = p,
				       .kernel = "k", .arch = "x86_64" };

		if (write(fd, "S", 1) != 1 || mmf_store_add_keep(dir, &c, KILL_KEEP, NULL) ||
		    write(fd, "D", 1) != 1)
			_exit(1);
		free(r);
		free(p);
	}
}

/* A kept file as first seen: its inode changes if it is ever replaced. */
struct seen_file {
	ino_t ino;
	off_t size;
	struct timespec mtime;
};

struct kill_state {
	long started, done, count;
	struct seen_file kept[KILL_KEEP][2];	/* report.N, progs.N */
	int nr_kept;
	int torn_temps;		/* rounds that left a temp file: a kill mid-write */
};

static int count_temps(const char *dir, const char *bug)
{
	char *path = mmf_xasprintf("%s/%s", dir, bug);
	DIR *d = opendir(path);
	struct dirent *e;
	int temps = 0;

	while (d && (e = readdir(d)))
		temps += !!strstr(e->d_name, ".tmp.");
	if (d)
		closedir(d);
	free(path);
	return temps;
}

/*
 * A kept occurrence's file: whole when first seen (read and compared),
 * the same file ever after (inode, size and mtime: cheap enough to check
 * every slot after every kill).
 */
static void check_file(const char *dir, const char *bug, const char *kind, int slot,
		       struct seen_file *seen, int *w, int *k)
{
	char *name = mmf_xasprintf("%s.%d", kind, slot), *path, *text;
	struct stat st;

	path = mmf_xasprintf("%s/%s/%s", dir, bug, name);
	CHECK(!stat(path, &st), "%s: %s", path, strerror(errno));
	free(path);
	if (seen->ino) {
		CHECK(st.st_ino == seen->ino && st.st_size == seen->size &&
		      st.st_mtim.tv_sec == seen->mtime.tv_sec &&
		      st.st_mtim.tv_nsec == seen->mtime.tv_nsec, "%s changed", name);
		free(name);
		return;
	}
	text = file_in(dir, bug, name);
	CHECK(occ_ok_size(text, kind, w, k, KILL_LINES), "half file %s", name);
	free(text);
	free(name);
	*seen = (struct seen_file){ st.st_ino, st.st_size, st.st_mtim };
}

static void check_slot(const char *dir, const char *bug, int slot, unsigned int files,
		       struct kill_state *s)
{
	int w = -1, k = -1, w2 = -1, k2 = -1;

	CHECK(slot < KILL_KEEP, "report.%d past the limit", slot);
	if (!s->kept[slot][0].ino)
		s->nr_kept++;
	check_file(dir, bug, "report", slot, &s->kept[slot][0], &w, &k);
	if (files & MMF_OCC_PROGS) {
		bool fresh = !s->kept[slot][1].ino;

		check_file(dir, bug, "progs", slot, &s->kept[slot][1], &w2, &k2);
		CHECK(!fresh || w < 0 || (w2 == w && k2 == k), "progs.%d of another occurrence",
		      slot);
	}
}

static void check_after_kill(const char *dir, struct kill_state *s)
{
	struct mmf_bug *bugs;
	long count = 0;
	int n = mmf_store_list(dir, &bugs);
	char *m;

	if (n == 0 || n == -ENOENT)
		return;	/* killed before the store or the title file was made */
	CHECK(n == 1, "%d bugs", n);
	m = file_in(dir, bugs[0].name, "meta");
	if (m) {
		CHECK(meta_whole(m, &count), "torn meta:\n%s", m);
		CHECK(count >= s->count, "count went back from %ld to %ld", s->count, count);
		s->count = count;
	}
	free(m);
	/* Every committed add is counted; none counted that did not start. */
	CHECK(bugs[0].count >= s->done && bugs[0].count <= s->started,
	      "count %ld, %ld adds done, %ld started", bugs[0].count, s->done, s->started);
	for (int i = 0; i < bugs[0].nr_occ; i++)
		check_slot(dir, bugs[0].name, bugs[0].occ[i].n, bugs[0].occ[i].files, s);
	CHECK(bugs[0].nr_occ == s->nr_kept, "%d kept, %d seen before: one lost",
	      bugs[0].nr_occ, s->nr_kept);
	s->torn_temps += count_temps(dir, bugs[0].name) > 0;
	mmf_bugs_free(bugs, n);
}

static void test_sigkill(void)
{
	struct mmf_crash c = { .title = "BUG: killed writer", .report = "r\n" };
	char *dir = store("killed"), *timing = store("timing");
	static struct kill_state s;
	struct mmf_store_added a;
	struct mmf_rand rnd;
	uint64_t t0 = mmf_now_ns();
	unsigned int span_us;

	/*
	 * Kills land anywhere in a few adds: as long as an add takes here and
	 * now (a busy host makes it slow), measured, and 3 ms at least.
	 */
	for (int k = 0; k < 5; k++) {
		char *r = occ_text_size("report", 0, k, KILL_LINES);
		char *p = occ_text_size("progs", 0, k, KILL_LINES);
		struct mmf_crash t = { .title = c.title, .report = r, .progs = p };

		CHECK(!mmf_store_add_keep(timing, &t, KILL_KEEP, &a), "%s", mmf_store_err());
		free(r);
		free(p);
	}
	span_us = MAX(3000, (unsigned int)((mmf_now_ns() - t0) / 1000 / 5 * 4));
	free(timing);
	mmf_rand_seed(&rnd, 12345);
	for (int round = 0; round < KILL_ROUNDS; round++) {
		int fds[2], status;
		char buf[4096];
		ssize_t r;
		pid_t pid;

		CHECK(!pipe(fds), "pipe");
		pid = fork();
		CHECK(pid >= 0, "fork");
		if (!pid) {
			close(fds[0]);
			doomed_writer(dir, fds[1], round);
		}
		close(fds[1]);
		/* Once it is adding (forking under ASan is slow), anywhere in a few adds. */
		r = read(fds[0], buf, 1);
		s.started += r == 1;
		usleep(mmf_rand_below(&rnd, span_us));
		kill(pid, SIGKILL);
		CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status),
		      "the writer died by itself");
		while ((r = read(fds[0], buf, sizeof(buf))) > 0)
			for (ssize_t i = 0; i < r; i++) {
				s.started += buf[i] == 'S';
				s.done += buf[i] == 'D';
			}
		close(fds[0]);
		check_after_kill(dir, &s);
	}
	/* The next writer sweeps the dead ones' temp files, and counts on. */
	CHECK(!mmf_store_add_keep(dir, &c, 0, &a), "%s", mmf_store_err());
	CHECK(a.count >= s.done + 1 && a.count <= s.started + 1, "count %ld after %ld adds",
	      a.count, s.done + 1);
	CHECK(a.count >= s.nr_kept + 1, "count %ld, but %d kept and one more", a.count,
	      s.nr_kept);
	CHECK(!count_temps(dir, a.name), "temp files left after a live writer");
	printf("INFO: store: %d writers SIGKILLed within %u us: %ld adds started, %ld done,"
	       " count %ld, %d kept; %d kills left temp files behind\n", KILL_ROUNDS, span_us,
	       s.started, s.done, a.count - 1, s.nr_kept, s.torn_temps);
	CHECK(s.done > 0 && s.started > s.done, "no kill landed inside an add");
	free(dir);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_add_count),
	TAP_TEST(test_keep_limit),
	TAP_TEST(test_times),
	TAP_TEST(test_titles),
	TAP_TEST(test_alt_titles),
	TAP_TEST(test_related),
	TAP_TEST(test_collision),
	TAP_TEST(test_repro),
	TAP_TEST(test_errors),
	TAP_TEST(test_html),
	TAP_TEST(test_concurrent),
	TAP_TEST(test_sigkill),
};

int main(void)
{
	/* tmpfs keeps 10000 fsyncs fast; the disk gets its own run. */
	const char *base = getenv("TMPDIR") ? getenv("TMPDIR") :
			   !access("/dev/shm", W_OK) ? "/dev/shm" : "/tmp";
	main_pid = getpid();
	tmpdir = mmf_xasprintf("%s/mmf-test-store.XXXXXX", base);
	CHECK(mkdtemp(tmpdir), "mkdtemp: %s", strerror(errno));
	atexit(remove_dirs);
	return tap_run(tests);
}
