// SPDX-License-Identifier: GPL-2.0
/*
 * The pure parts of the stressors: the selection syntax, the sampler's
 * line format and parsing, the run summary, stress-ng titles and the
 * squeeze's limits.
 */
#include <errno.h>
#include <string.h>

#include "stressors/memcg.h"
#include "stressors/sampler.h"
#include "stressors/stressng.h"
#include "stressors/stressor.h"
#include "tap.h"

static void test_parse(void)
{
	struct mmf_stress_sel sel;
	char err[256];

	CHECK(!mmf_stress_parse("memcg,swap:hold=200", &sel, err, sizeof(err)), "%s", err);
	CHECK(sel.nr == 2 && !strcmp(sel.info[0]->name, "memcg"), "nr %d", sel.nr);
	CHECK(sel.opt[0][0] == 8 && sel.opt[1][0] == 200, "opts %lld %lld",
	      (long long)sel.opt[0][0], (long long)sel.opt[1][0]);
	/* Named twice: one stressor, the later options win. */
	CHECK(!mmf_stress_parse("ksm:scan=5,ksm:area=2", &sel, err, sizeof(err)), "%s", err);
	CHECK(sel.nr == 1 && sel.opt[0][0] == 5 && sel.opt[0][1] == 2, "merged");
	CHECK(!mmf_stress_parse("swap+uring", &sel, err, sizeof(err)) && sel.nr == 2, "plus");
	CHECK(!mmf_stress_parse("none", &sel, err, sizeof(err)) && sel.nr == 0, "none");
	CHECK(!mmf_stress_parse("all", &sel, err, sizeof(err)) &&
	      sel.nr == (int)mmf_nr_stressors, "all: %d", sel.nr);
	CHECK(!mmf_stress_parse(mmf_stress_default, &sel, err, sizeof(err)), "default: %s", err);

	CHECK(mmf_stress_parse("nosuch", &sel, err, sizeof(err)) &&
	      strstr(err, "unknown stressor 'nosuch'"), "%s", err);
	CHECK(mmf_stress_parse("swap:hold", &sel, err, sizeof(err)) && strstr(err, "KEY=VALUE"),
	      "%s", err);
	CHECK(mmf_stress_parse("swap:hold=-5", &sel, err, sizeof(err)) &&
	      strstr(err, "want a number in [0, 60000]"), "%s", err);
	CHECK(mmf_stress_parse("swap:hold=5x", &sel, err, sizeof(err)), "trailing junk");
	CHECK(mmf_stress_parse("swap:speed=5", &sel, err, sizeof(err)) &&
	      strstr(err, "no option 'speed'"), "%s", err);
	CHECK(mmf_stress_parse(",", &sel, err, sizeof(err)) && strstr(err, "no stressor"),
	      "%s", err);
}

static void test_sample_format(void)
{
	static const char *const keys[] = { "pswpin", "pgscan_*", "MemFree", NULL };
	const char *vmstat = "pswpin 12\npswpout 7\npgscan_kswapd 3\npgscan_direct 4\n";
	const char *meminfo = "MemTotal:  100 kB\nMemFree:    42 kB\n";
	struct strbuf sb;
	uint64_t v;

	mmf_sb_init(&sb);
	mmf_sb_puts(&sb, "{\"t\":1.000");
	mmf_sample_kv(&sb, "vmstat", vmstat, keys);
	mmf_sample_kv(&sb, "meminfo", meminfo, keys);
	mmf_sb_puts(&sb, "}");
	CHECK(!strcmp(sb.buf, "{\"t\":1.000,\"vmstat.pswpin\":12,\"vmstat.pgscan_kswapd\":3,"
		      "\"vmstat.pgscan_direct\":4,\"meminfo.MemFree\":42}"), "%s", sb.buf);
	CHECK(!mmf_sample_get(sb.buf, "vmstat.pgscan_direct", &v) && v == 4, "get");
	CHECK(mmf_sample_get(sb.buf, "vmstat.pswpout", &v) == -ENOENT, "absent");
	/* A key is matched whole, not as the prefix of a longer one. */
	CHECK(mmf_sample_get(sb.buf, "vmstat.pgscan", &v) == -ENOENT, "prefix");
	mmf_sb_free(&sb);
}

static void test_summary(void)
{
	struct mmf_summary s;
	struct strbuf sb;

	mmf_summary_init(&s);
	mmf_summary_add(&s, "{\"t\":0.000,\"vmstat.pswpout\":10,\"vmstat.pgscan_anon\":5,"
			"\"vmstat.pgscan_file\":1,\"meminfo.SwapTotal\":4096,"
			"\"meminfo.SwapFree\":4096}");
	mmf_summary_add(&s, "{\"t\":1.000,\"vmstat.pswpout\":30,\"vmstat.pgscan_anon\":9,"
			"\"vmstat.pgscan_file\":3,\"meminfo.SwapTotal\":4096,"
			"\"meminfo.SwapFree\":1024}");
	mmf_summary_add(&s, "{\"t\":2.500,\"vmstat.pswpout\":40,\"vmstat.pgscan_anon\":10,"
			"\"vmstat.pgscan_file\":3,\"meminfo.SwapTotal\":4096,"
			"\"meminfo.SwapFree\":4096}");
	mmf_summary_add(&s, "not a sample");
	mmf_sb_init(&sb);
	mmf_summary_format(&s, &sb);
	CHECK(strstr(sb.buf, "summary: 2 s, 3 samples:"), "%s", sb.buf);
	CHECK(strstr(sb.buf, " pswpout +30 ") && strstr(sb.buf, " pgscan +7 "), "%s", sb.buf);
	/* Counters the kernel lacks are said to be missing, not zero. */
	CHECK(strstr(sb.buf, " thp_swpout n/a "), "%s", sb.buf);
	CHECK(strstr(sb.buf, "swap used peak 3 MiB"), "%s", sb.buf);
	CHECK(mmf_summary_swapped(&s) && !strstr(sb.buf, "never reached swap"), "%s", sb.buf);
	mmf_sb_free(&sb);
	mmf_summary_free(&s);

	mmf_summary_add(&s, "{\"t\":0.000,\"vmstat.pswpout\":10}");
	mmf_summary_add(&s, "{\"t\":9.000,\"vmstat.pswpout\":10}");
	mmf_sb_init(&sb);
	mmf_summary_format(&s, &sb);
	CHECK(!mmf_summary_swapped(&s) && strstr(sb.buf, "this run never reached swap"), "%s",
	      sb.buf);
	mmf_sb_free(&sb);
	mmf_summary_free(&s);
}

static void test_stressng_title(void)
{
	char t[256];

	CHECK(!mmf_stressng_title("stress-ng: info:  [12] dispatching hogs: 1 vm\n", t,
				  sizeof(t)), "no failure");
	CHECK(mmf_stressng_title("stress-ng: info:  [12] x\nstress-ng: fail:  [4711] vm: "
				 "detected 17 bit errors at 0x7f00aa\n", t, sizeof(t)), "fail");
	CHECK(!strcmp(t, "stress-ng: vm: detected N bit errors at N"), "%s", t);
	/* What our own stress provokes is no finding... */
	CHECK(!mmf_stressng_title("stress-ng: error: [9] klog-check: error: [113.49] 'Unable to "
				  "find swap-space signature'\n", t, sizeof(t)), "benign");
	/* ...a kernel warning is. */
	CHECK(mmf_stressng_title("stress-ng: error: [9] klog-check: error: [113.49] 'WARNING: "
				 "CPU: 1 PID: 77 at mm/swapfile.c:123 foo'\n", t, sizeof(t)),
	      "klog");
	CHECK(!strcmp(t, "stress-ng: klog-check: WARNING: CPU: N PID: N at mm/swapfile.c:N foo"),
	      "%s", t);
}

static void test_squeeze_limits(void)
{
	int64_t max, high;

	mmf_memcg_squeeze_limits(24 << 20, 8 << 20, 0.0, &max, &high);
	CHECK(high == 8 << 20 && max == 16 << 20, "low %lld %lld", (long long)high,
	      (long long)max);
	mmf_memcg_squeeze_limits(24 << 20, 8 << 20, 0.999, &max, &high);
	CHECK(high <= 24 << 20 && high > 23 << 20 && max == high + high / 2, "high");
	/* A floor above the base is the base. */
	mmf_memcg_squeeze_limits(4 << 20, 8 << 20, 0.5, &max, &high);
	CHECK(high == 4 << 20 && max == 8 << 20, "floor %lld", (long long)high);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_parse),
	TAP_TEST(test_sample_format),
	TAP_TEST(test_summary),
	TAP_TEST(test_stressng_title),
	TAP_TEST(test_squeeze_limits),
};

int main(void)
{
	return tap_run(tests);
}
