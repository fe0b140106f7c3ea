// SPDX-License-Identifier: GPL-2.0
/*
 * The pure parts of the benchmarks: summary statistics on known data,
 * results through JSON lines and back (validate reads them from guests),
 * lines that are not results, and the table lookup.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "bench/bench.h"
#include "tap.h"
#include "util/util.h"

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-9 * MAX(1.0, fabs(b));
}

#define NEAR(a, b) near(a, b)

static void test_stats(void)
{
	/* Mean 5, squares sum 32, sample variance 32/7. */
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	const double odd[] = { 3, 1, 2 };
	const double one[] = { 42 };
	struct mmf_stats st;

	mmf_stats_of(v, 8, &st);
	CHECK(st.n == 8, "n %d", st.n);
	CHECK(NEAR(st.mean, 5), "mean %g", st.mean);
	CHECK(NEAR(st.stddev, sqrt(32.0 / 7)), "stddev %g", st.stddev);
	CHECK(NEAR(st.median, 4.5), "median %g", st.median);
	mmf_stats_of(odd, 3, &st);
	CHECK(NEAR(st.median, 2) && NEAR(st.mean, 2) && NEAR(st.stddev, 1),
	      "odd: median %g mean %g stddev %g", st.median, st.mean, st.stddev);
	CHECK(odd[0] == 3, "the samples were sorted in place");
	mmf_stats_of(one, 1, &st);
	CHECK(NEAR(st.mean, 42) && st.stddev == 0 && NEAR(st.median, 42), "one sample");
	mmf_stats_of(NULL, 0, &st);
	CHECK(st.n == 0 && st.mean == 0 && st.stddev == 0, "no samples");
}

static void test_json(void)
{
	struct mmf_bench_result res = { 0 }, back;
	struct strbuf sb;
	char name[256];

	mmf_bench_add(&res, "elapsed_ms", "ms", 1234.5678, false);
	mmf_bench_add(&res, "pswpin", "pages", 65536, false);
	mmf_bench_add(&res, "thp_swpout", "folios", 4096, true);
	mmf_bench_add(&res, "ns_per_call_t2", "ns/call", 0.125, false);
	mmf_sb_init(&sb);
	mmf_bench_json("madv-free", 3, &res, &sb);
	CHECK(!strchr(sb.buf, '\n'), "one line: %s", sb.buf);
	CHECK(strstr(sb.buf, "{\"bench\":\"madv-free\",\"run\":3,\"metrics\":{\"elapsed_ms\":"
			     "{\"value\":1234.5678,\"unit\":\"ms\",\"better\":\"lower\"}"),
	      "format: %s", sb.buf);
	CHECK(mmf_bench_parse(sb.buf, name, sizeof(name), &back) == 0, "parse %s", sb.buf);
	CHECK(!strcmp(name, "madv-free"), "name %s", name);
	CHECK(back.nr == res.nr, "nr %d", back.nr);
	for (int i = 0; i < res.nr; i++) {
		CHECK(!strcmp(back.m[i].name, res.m[i].name), "name %s", back.m[i].name);
		CHECK(!strcmp(back.m[i].unit, res.m[i].unit), "unit %s", back.m[i].unit);
		CHECK(back.m[i].value == res.m[i].value, "%s: %.17g", back.m[i].name,
		      back.m[i].value);
		CHECK(back.m[i].higher_is_better == res.m[i].higher_is_better, "better");
	}
	mmf_sb_free(&sb);

	/* Another writer's spacing, key order and extra keys are fine. */
	CHECK(mmf_bench_parse(" { \"run\" : 1 , \"host\" : {\"cpus\": 2, \"x\": true},"
			      " \"metrics\" : { \"a\" : { \"unit\" : \"ms\", \"value\" : 1e3 } },"
			      " \"bench\" : \"x\" } ", name, sizeof(name), &back) == 0,
	      "spacing and order");
	CHECK(back.nr == 1 && back.m[0].value == 1000 && !back.m[0].higher_is_better,
	      "default better is lower");

	/* An empty result is a result. */
	memset(&res, 0, sizeof(res));
	mmf_sb_init(&sb);
	mmf_bench_json("mlock-scaling", 1, &res, &sb);
	CHECK(mmf_bench_parse(sb.buf, name, sizeof(name), &back) == 0 && back.nr == 0,
	      "empty: %s", sb.buf);
	mmf_sb_free(&sb);
}

static void test_malformed(void)
{
	static const char *const bad[] = {
		"",
		"mmfuzz: bench madv-free: fork: Resource temporarily unavailable",
		"{\"bench\":\"madv-free\",\"run\":1,\"metrics\":"
		"{\"a\":{\"value\":1,\"unit\":\"ms\"}}",
		"{\"bench\":\"madv-free\",\"run\":1}",
		"{\"run\":1,\"metrics\":{}}",
		"{\"bench\":\"x\",\"metrics\":{\"a\":{\"value\":1}}}",
		"{\"bench\":\"x\",\"metrics\":{\"a\":{\"unit\":\"ms\"}}}",
		"{\"bench\":\"x\",\"metrics\":{\"a\":{\"value\":z,\"unit\":\"ms\"}}}",
		"{\"bench\":\"x\",\"metrics\":{\"a\":{\"value\":1,\"unit\":\"furlongs\"}}}",
		"{\"bench\":\"x\",\"metrics\":"
		"{\"a\":{\"value\":1,\"unit\":\"ms\",\"better\":\"no\"}}}",
		"{\"bench\":\"x\",\"metrics\":{}} trailing",
		"{\"bench\":\"x\",\"metrics\":{\"a_name_far_longer_than_the_32_bytes_of_a_metric\":"
		"{\"value\":1,\"unit\":\"ms\"}}}",
	};
	struct mmf_bench_result res;
	char name[8];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		CHECK(mmf_bench_parse(bad[i], name, sizeof(name), &res) == -1, "accepted: %s",
		      bad[i]);
	/* A bench name longer than the caller's buffer is not cut silently. */
	CHECK(mmf_bench_parse("{\"bench\":\"swap-free-exit\",\"metrics\":{}}", name, sizeof(name),
			      &res) == -1, "long name accepted");
}

static void test_find(void)
{
	static const char *const names[] = {
		"madv-free", "madv-dontneed", "pageout-64k", "pageout-4k", "swapin-reuse",
		"swap-free-exit", "mlock-scaling",
	};
	struct mmf_bench_ctx c;

	CHECK(mmf_nr_benches == ARRAY_SIZE(names), "%zu benchmarks", mmf_nr_benches);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		const struct mmf_bench_info *b = mmf_bench_find(names[i]);

		CHECK(b && !strcmp(b->name, names[i]) && b->run && b->help, "%s", names[i]);
	}
	CHECK(!mmf_bench_find("madv") && !mmf_bench_find("") && !mmf_bench_find("all"),
	      "prefixes and 'all' are not benchmarks");
	CHECK(!mmf_bench_find("mlock-scaling")->needs_swap, "mlock needs no swap");
	CHECK(mmf_bench_find("madv-free")->needs_swap, "madv-free needs swap");
	mmf_bench_ctx_default(&c);
	CHECK(c.mem_bytes >= 16 << 20 && c.mem_bytes <= 256 << 20, "mem %zu", c.mem_bytes);
	CHECK(c.cpus >= 1 && !c.nr_swaps && !c.swaps && !c.j, "ctx");
}

static const struct tap_test tests[] = {
	TAP_TEST(test_stats),
	TAP_TEST(test_json),
	TAP_TEST(test_malformed),
	TAP_TEST(test_find),
};

int main(void)
{
	return tap_run(tests);
}
