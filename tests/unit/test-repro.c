// SPDX-License-Identifier: GPL-2.0
/*
 * The reproducer search against a runner that "crashes" whenever a
 * program writes tag 0xee: the last program alone is found and minimized
 * to its write; a deadline already past tries nothing; a deadline reached
 * during minimization keeps what was found and still measures its hit rate.
 * A racing program "crashes" when a round's delay is 3000 ns: with the
 * round mark of its finding, the recorded delay is tried first and kept;
 * without it, minimization narrows the sweep down to that delay. A range
 * of 512 pages that needs only one is cut to one page in one kept step,
 * not nine halvings (each kept step restarts a guest). A crash's older
 * occurrence reproduces where its newest does not, and one that comes
 * back one run in seven is found when a deadline gives time for more; one
 * that hit once and never in the runs that measure it is not found.
 * The progress line comes once its interval has passed, with every run
 * counted, and not before.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/crashdir.h"
#include "repro/repro.h"
#include "tap.h"
#include "runtime/racesync.h"
#include "util/util.h"

static const char text[] =
	"m0 = mmap(0, 16, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
	"madvise(m0, 0, 16, MADV_PAGEOUT)\n"
	"write(m0, 0, 16, 0xee)\n"
	"madvise(m0, 0, 16, MADV_FREE)\n"
	"read(m0, 0, 16)\n";

struct runner {
	struct mmf_repro_ops *ops;
	int runs, expire_after;	/* runs before the deadline passes, -1: never */
	int every;		/* only every this many runs can hit, 0: all */
	bool once;		/* it hits once, never again (state a later run lacks) */
	int hit;		/* hits so far */
	int lines;		/* progress lines logged */
	char last[128];		/* the last one */
};

static void log_progress(void *ctx, const char *fmt, ...)
{
	struct runner *r = ctx;
	va_list ap;

	if (fmt[0] != '[')
		return;
	va_start(ap, fmt);
	vsnprintf(r->last, sizeof(r->last), fmt, ap);
	va_end(ap);
	r->lines++;
}

static int run(void *ctx, const struct mmf_prog *progs, int n, const char *title)
{
	struct runner *r = ctx;

	if (++r->runs == r->expire_after)
		r->ops->deadline_ns = mmf_now_ns();
	if ((r->every && r->runs % r->every) || (r->once && r->hit))
		return 0;
	for (int i = 0; i < n; i++)
		for (int k = 0; k < progs[i].nr; k++)
			if (progs[i].stmts[k].id >= 0 &&
			    (mmf_calls[progs[i].stmts[k].id].flags & MMF_CALL_STORES) &&
			    progs[i].stmts[k].args[3] == 0xee) {
				r->hit++;
				return 1;
			}
	return 0;
}

/* A race whose sweep passes 3000 ns, rounds at every 1000 ns at least. */
static int run_race(void *ctx, const struct mmf_prog *progs, int n, const char *title)
{
	struct runner *r = ctx;

	r->runs++;
	for (int k = 0; k < progs[0].nr; k++) {
		const uint64_t *a = progs[0].stmts[k].args;

		if (progs[0].stmts[k].id != MMF_RACE)
			continue;
		for (int round = 0; round < (int)a[0]; round++)
			if (race_sweep(round, a[0], a[2], a[3]) == 3000)
				return 1;
	}
	return 0;
}

static void race_search(const char *mark, struct mmf_repro_result *res, struct runner *r)
{
	struct mmf_repro_ops ops = {
		.run = run_race, .ctx = r, .attempts = 1, .min_attempts = 1, .max_steps = 200,
	};
	struct mmf_prog p;
	struct strbuf sb;
	char err[128];

	mmf_sb_init(&sb);
	mmf_sb_printf(&sb, "m0 = mmap(0, 16, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
		      "race(9, block1, 0, 8000)\n"
		      "thread {\n"
		      "\tread(m0, 0, 1)\n"
		      "}\n"
		      "write(m0, 0, 1, 0x11)\n"
		      "%s", mark);
	*r = (struct runner){ .ops = &ops, .expire_after = -1 };
	CHECK(!mmf_prog_parse(sb.buf, &p, err, sizeof(err)), "%s", err);
	mmf_sb_free(&sb);
	CHECK(!mmf_repro(&ops, &p, 1, "KCSAN", res), "search failed");
	CHECK(res->found && res->nr_progs == 1, "found %d", res->found);
}

/* The race statement of a found reproducer. */
static const uint64_t *race_args(const struct mmf_repro_result *res)
{
	for (int k = 0; k < res->progs[0].nr; k++)
		if (res->progs[0].stmts[k].id == MMF_RACE)
			return res->progs[0].stmts[k].args;
	CHECK(0, "the reproducer lost its race");
	return NULL;
}

static void test_race_delay(void)
{
	struct mmf_repro_result res;
	const uint64_t *a;
	struct runner r = { 0 };
	int marked;

	race_search("# " MMF_RACE_ROUND_MARK " 4 of 9, delay 3000 ns\n", &res, &r);
	a = race_args(&res);
	CHECK(a[2] == 3000 && a[3] == 3000, "delays %llu..%llu, want the recorded 3000",
	      (unsigned long long)a[2], (unsigned long long)a[3]);
	CHECK(a[0] == 1, "%llu rounds left", (unsigned long long)a[0]);
	marked = res.steps;
	race_search("", &res, &r);
	a = race_args(&res);
	CHECK(a[2] == 3000 && a[3] == 3000, "delays %llu..%llu, want 3000 narrowed to",
	      (unsigned long long)a[2], (unsigned long long)a[3]);
	CHECK(marked < res.steps, "%d steps with the recorded delay, %d without", marked,
	      res.steps);
}

static void search(int expire_after, uint64_t deadline, struct mmf_repro_result *res,
		   struct runner *r)
{
	struct mmf_repro_ops ops = {
		.run = run, .ctx = r, .attempts = 3, .min_attempts = 1, .max_steps = 100,
		.deadline_ns = deadline,
	};
	struct mmf_prog p[2];
	char err[128];

	*r = (struct runner){ .ops = &ops, .expire_after = expire_after, .once = r->once };
	CHECK(!mmf_prog_parse("read(m0, 0, 1)\n", &p[0], err, sizeof(err)), "%s", err);
	CHECK(!mmf_prog_parse(text, &p[1], err, sizeof(err)), "%s", err);
	CHECK(!mmf_repro(&ops, p, 2, "DATA CORRUPTION", res), "search failed");
}

static void test_found(void)
{
	struct mmf_repro_result res;
	struct runner r = { 0 };

	search(-1, 0, &res, &r);
	CHECK(res.found && res.nr_progs == 1, "found %d, %d programs", res.found, res.nr_progs);
	CHECK(res.calls_before == 5 && res.calls_after == 1, "calls %d -> %d", res.calls_before,
	      res.calls_after);
	CHECK(res.hits == 3 && res.runs == 3, "hit rate %d/%d", res.hits, res.runs);

	/* A hit the search met once and the measuring runs never: no reproducer. */
	r = (struct runner){ .once = true };
	search(-1, 0, &res, &r);
	CHECK(!res.found && r.hit == 1 && res.hits == 0, "found %d after %d hit(s), rate %d/%d",
	      res.found, r.hit, res.hits, res.runs);
}

static void test_progress(void)
{
	struct mmf_repro_progress p = { 0 };
	struct mmf_repro_ops ops = {
		.run = run, .attempts = 3, .min_attempts = 1, .max_steps = 100,
		.log = log_progress, .progress = &p,
	};
	struct runner r = { .ops = &ops, .expire_after = -1 };
	struct mmf_prog prog;
	struct mmf_repro_result res;
	char err[128];

	ops.ctx = &r;
	CHECK(!mmf_prog_parse(text, &prog, err, sizeof(err)), "%s", err);
	CHECK(!mmf_repro(&ops, &prog, 1, "DATA CORRUPTION", &res) && res.found, "search");
	CHECK(r.lines == 0 && p.runs == r.runs && p.hits > 0, "%d lines in %d runs (%d counted)",
	      r.lines, r.runs, p.runs);
	/* As if the interval had passed: the next run's line counts them all. */
	p.t0_ns = p.shown_ns = mmf_now_ns() - (MMF_REPRO_PROGRESS_MS + 2000) * 1000000ull;
	ops.deadline_ns = mmf_now_ns() + 90 * 1000000000ull;
	CHECK(mmf_repro_hits(&ops, &prog, 1, "DATA CORRUPTION", 1, false, &res.runs) == 1,
	      "a hit");
	CHECK(r.lines == 1 && strstr(r.last, "s] runs ") &&
	      strstr(r.last, " hits ") && strstr(r.last, "m") && strstr(r.last, "s left"),
	      "%d lines, the last '%s'", r.lines, r.last);
	CHECK(atoi(strstr(r.last, "runs ") + 5) == r.runs, "'%s' after %d runs", r.last, r.runs);
}

static void test_deadline_past(void)
{
	struct mmf_repro_result res;
	struct runner r = { 0 };

	search(-1, 1, &res, &r);
	CHECK(!res.found && r.runs == 0, "found %d after %d runs", res.found, r.runs);
}

static void test_deadline_in_minimization(void)
{
	struct mmf_repro_result res;
	struct runner r = { 0 };

	/* Run 1 finds it; the deadline passes with the first step. */
	search(2, 0, &res, &r);
	CHECK(res.found && res.steps == 1, "found %d, %d steps", res.found, res.steps);
	CHECK(res.calls_after > 1, "minimized to %d calls past the deadline", res.calls_after);
	CHECK(res.hits == 3 && res.runs == 3, "hit rate %d/%d", res.hits, res.runs);
}

/* A crash directory: its title and the occurrences' programs, oldest first. */
static char *crash_dir(const char *const *progs, int n)
{
	char *dir = mmf_xstrdup("/tmp/mmfuzz-test-repro.XXXXXX"), *path;

	CHECK(mkdtemp(dir), "mkdtemp");
	path = mmf_xasprintf("%s/title", dir);
	CHECK(!mmf_write_file_new(path, "DATA CORRUPTION\n", 16), "%s", path);
	free(path);
	for (int i = 0; i < n; i++) {
		path = mmf_xasprintf("%s/progs.%d", dir, i);
		CHECK(!mmf_write_file_new(path, progs[i], strlen(progs[i])), "%s", path);
		free(path);
	}
	return dir;
}

static void remove_dir(char *dir)
{
	char *cmd = mmf_xasprintf("rm -rf %s", dir);

	CHECK(!system(cmd), "%s", cmd);
	free(cmd);
	free(dir);
}

/*
 * A bug found again by a mutant that does not bring it back: the older
 * occurrence's program does. A finding that comes back one run in seven:
 * one run per candidate misses it, and the search is made again with more
 * while the deadline allows.
 */
static void test_occurrences(void)
{
	static const char *const progs[] = { text, "m0 = mmap(0, 16, anon, PROT_READ|PROT_WRITE,"
					     " MAP_PRIVATE, 0)\nread(m0, 0, 16)\n" };
	struct mmf_repro_ops ops = { .run = run, .attempts = 1, .min_attempts = 1 };
	struct runner r = { .ops = &ops, .expire_after = -1 };
	struct mmf_repro_result res;
	struct mmf_crash_progs c;
	char err[256], *dir = crash_dir(progs, 2);

	ops.ctx = &r;
	CHECK(!mmf_crash_load(dir, &c, err, sizeof(err)), "%s", err);
	CHECK(c.nr_occ == 2 && strstr(c.path, "progs.1"), "%d occurrences, %s first", c.nr_occ,
	      c.path);
	CHECK(!mmf_crash_repro(&ops, &c, &res), "search failed");
	CHECK(res.found && strstr(c.path, "progs.0"), "found %d, from %s", res.found, c.path);
	mmf_crash_progs_free(&c);
	r = (struct runner){ .ops = &ops, .expire_after = -1, .every = 7 };
	CHECK(!mmf_crash_load(dir, &c, err, sizeof(err)), "%s", err);
	CHECK(!mmf_crash_repro(&ops, &c, &res), "search failed");
	CHECK(!res.found && r.runs == 2, "no deadline: found %d in %d runs", res.found, r.runs);
	r.runs = 0;
	ops.deadline_ns = mmf_now_ns() + 60 * 1000000000ull;
	CHECK(!mmf_crash_repro(&ops, &c, &res), "search failed");
	CHECK(res.found && r.runs >= 7, "a deadline: found %d in %d runs", res.found, r.runs);
	mmf_crash_progs_free(&c);
	remove_dir(dir);
}

static void test_one_page_first(void)
{
	struct mmf_repro_ops ops = {
		.run = run, .attempts = 1, .min_attempts = 1, .max_steps = 100,
	};
	struct runner r = { .ops = &ops, .expire_after = -1 };
	struct mmf_prog p;
	char err[128];
	int steps;

	ops.ctx = &r;
	CHECK(!mmf_prog_parse("m0 = mmap(0, 512, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
			      "write(m0, 0, 512, 0xee)\n", &p, err, sizeof(err)), "%s", err);
	CHECK(!mmf_repro_minimize(&ops, &p, "DATA CORRUPTION", &steps), "minimize failed");
	for (int i = 0; i < p.nr; i++)
		if (p.stmts[i].id >= 0 && (mmf_calls[p.stmts[i].id].flags & MMF_CALL_STORES))
			CHECK(p.stmts[i].args[2] == 1, "the write covers %llu pages",
			      (unsigned long long)p.stmts[i].args[2]);
	CHECK(r.runs <= 6, "%d runs in %d steps", r.runs, steps);
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(test_found), TAP_TEST(test_progress), TAP_TEST(test_deadline_past),
		TAP_TEST(test_deadline_in_minimization), TAP_TEST(test_race_delay),
		TAP_TEST(test_one_page_first), TAP_TEST(test_occurrences),
	};

	return tap_run(tests);
}
