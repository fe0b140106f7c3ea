// SPDX-License-Identifier: GPL-2.0
/*
 * The reproducer search against a runner that "crashes" whenever a
 * program writes tag 0xee: the last program alone is found and minimized
 * to its write; a deadline already past tries nothing; a deadline reached
 * during minimization keeps what was found and still measures its hit rate.
 */
#include <string.h>

#include "repro/repro.h"
#include "tap.h"
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
};

static int run(void *ctx, const struct mmf_prog *progs, int n, const char *title)
{
	struct runner *r = ctx;

	if (++r->runs == r->expire_after)
		r->ops->deadline_ns = mmf_now_ns();
	for (int i = 0; i < n; i++)
		for (int k = 0; k < progs[i].nr; k++)
			if (progs[i].stmts[k].id >= 0 &&
			    (mmf_calls[progs[i].stmts[k].id].flags & MMF_CALL_STORES) &&
			    progs[i].stmts[k].args[3] == 0xee)
				return 1;
	return 0;
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

	*r = (struct runner){ .ops = &ops, .expire_after = expire_after };
	CHECK(!mmf_prog_parse("read(m0, 0, 1)\n", &p[0], err, sizeof(err)), "%s", err);
	CHECK(!mmf_prog_parse(text, &p[1], err, sizeof(err)), "%s", err);
	CHECK(!mmf_repro(&ops, p, 2, "DATA CORRUPTION", res), "search failed");
}

static void test_found(void)
{
	struct mmf_repro_result res;
	struct runner r;

	search(-1, 0, &res, &r);
	CHECK(res.found && res.nr_progs == 1, "found %d, %d programs", res.found, res.nr_progs);
	CHECK(res.calls_before == 5 && res.calls_after == 1, "calls %d -> %d", res.calls_before,
	      res.calls_after);
	CHECK(res.hits == 3 && res.runs == 3, "hit rate %d/%d", res.hits, res.runs);
}

static void test_deadline_past(void)
{
	struct mmf_repro_result res;
	struct runner r;

	search(-1, 1, &res, &r);
	CHECK(!res.found && r.runs == 0, "found %d after %d runs", res.found, r.runs);
}

static void test_deadline_in_minimization(void)
{
	struct mmf_repro_result res;
	struct runner r;

	/* Run 1 finds it; the deadline passes with the first step. */
	search(2, 0, &res, &r);
	CHECK(res.found && res.steps == 1, "found %d, %d steps", res.found, res.steps);
	CHECK(res.calls_after > 1, "minimized to %d calls past the deadline", res.calls_after);
	CHECK(res.hits == 3 && res.runs == 3, "hit rate %d/%d", res.hits, res.runs);
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(test_found), TAP_TEST(test_deadline_past),
		TAP_TEST(test_deadline_in_minimization),
	};

	return tap_run(tests);
}
