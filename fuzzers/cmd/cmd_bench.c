// SPDX-License-Identifier: GPL-2.0
/*
 * mmfuzz bench: run the seed benchmarks on the running kernel, N times
 * each, with swap devices of our own, and print every run's metrics and
 * their summary, or JSON lines for machines (validate's A/B comparison).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "cmd/cmds.h"
#include "fuzz/env.h"
#include "sys/swapdev.h"
#include "sys/sysfs.h"
#include "util/util.h"

static const char epilog[] =
	"Needs root: it adds swap devices of its own (removed at the end) and\n"
	"sets THP knobs for a run (restored after it).\n";

struct bench_cmd {
	int runs;
	bool json, list;
	uint64_t mem;		/* bytes, 0: the context's default */
};

/*
 * Two zram devices of equal priority: zram is a block device, so large
 * folios go to it whole (swap files take base pages only), and equal
 * priorities spread entries over both for swap-free-exit. Without zram,
 * two swap files.
 */
static int swap_setup(size_t mem, struct mmf_env *env, char *err, size_t n)
{
	struct mmf_env_opts o = mmf_env_defaults;

	o.swap_bytes = MAX(mem + mem / 2, (size_t)64 << 20);
	o.cg_limit = 0;
	o.nr_swapfiles = 0;
	o.loop = false;
	if (mmf_env_setup(&o, env, err, n))
		return -1;
	if (env->set.nr == 1) {
		struct mmf_swapset *set = &env->set;

		if (mmf_zram_add(env->j, o.swap_bytes, set->prio[0], set->path[1]) < 0) {
			snprintf(err, n, "second zram device: %s", mmf_sys_err());
			mmf_env_teardown(env);
			return -1;
		}
		set->prio[1] = set->prio[0];
		set->nr = 2;
		env->swaps[1] = set->path[1];
		env->nr_swaps = 2;
		return 0;
	}
	mmf_env_teardown(env);
	o.zram = false;
	o.nr_swapfiles = 2;
	return mmf_env_setup(&o, env, err, n);
}

struct series {
	const char *name, *unit;
	bool higher;
	int n;
	double *v;
};

static void summary(const char *bench, struct mmf_bench_result *res, int nr)
{
	struct series s[MMF_BENCH_MAX_METRICS];
	int ns = 0;

	/* Metrics in order of first appearance; a run may lack one (vmstat). */
	for (int r = 0; r < nr; r++)
		for (int i = 0; i < res[r].nr; i++) {
			struct mmf_metric *m = &res[r].m[i];
			int k;

			for (k = 0; k < ns && strcmp(s[k].name, m->name); k++)
				;
			if (k == ns) {
				if (ns == MMF_BENCH_MAX_METRICS)
					continue;
				s[ns++] = (struct series){ m->name, m->unit, m->higher_is_better, 0,
							   mmf_xcalloc(nr, sizeof(double)) };
			}
			s[k].v[s[k].n++] = m->value;
		}
	printf("%s: summary of %d run(s)\n", bench, nr);
	for (int k = 0; k < ns; k++) {
		struct mmf_stats st;

		mmf_stats_of(s[k].v, s[k].n, &st);
		printf("  %-22s mean %12.3f  stddev %10.3f  median %12.3f  %-7s (%s is better)\n",
		       s[k].name, st.mean, st.stddev, st.median, s[k].unit,
		       s[k].higher ? "higher" : "lower");
		free(s[k].v);
	}
}

/* N runs of one benchmark; 0, 1 (a run failed) or -EOPNOTSUPP. */
static int run_bench(const struct bench_cmd *bc, const struct mmf_bench_info *b,
		     const struct mmf_bench_ctx *ctx)
{
	struct mmf_bench_result *res = mmf_xcalloc(bc->runs, sizeof(*res));
	int nr = 0, failed = 0;

	for (int i = 0; i < bc->runs; i++) {
		struct mmf_bench_result *r = &res[nr];
		int e = mmf_bench_run(b, ctx, r);

		if (e == -EOPNOTSUPP) {
			mmf_warnx_("bench %s: not supported here, skipped", b->name);
			free(res);
			return e;
		}
		if (e < 0) {
			failed++;
			memset(r, 0, sizeof(*r));
			continue;
		}
		nr++;
		if (bc->json) {
			struct strbuf sb;

			mmf_sb_init(&sb);
			mmf_bench_json(b->name, i + 1, r, &sb);
			printf("%s\n", sb.buf);
			mmf_sb_free(&sb);
		} else {
			printf("%s run %d:", b->name, i + 1);
			for (int k = 0; k < r->nr; k++)
				printf(" %s=%.3f", r->m[k].name, r->m[k].value);
			printf("\n");
		}
		fflush(stdout);
	}
	if (!bc->json && nr)
		summary(b->name, res, nr);
	free(res);
	return failed ? 1 : 0;
}

int cmd_bench(int argc, char **argv)
{
	struct bench_cmd bc = { .runs = 5 };
	const struct mmf_opt opts[] = {
		MMF_OPT("runs", "N", MMF_OPT_INT, &bc.runs, "runs of each benchmark",
			.lo = 1, .hi = 1000),
		MMF_OPT("json", NULL, MMF_OPT_FLAG, &bc.json,
			"one JSON line per run instead of the table and summary"),
		MMF_OPT("mem", "MIB", MMF_OPT_MIB, &bc.mem, "memory the workloads touch",
			.lo = 1, .hi = 1 << 20, .def = "RAM/8, 16..256 MiB"),
		MMF_OPT("list", NULL, MMF_OPT_FLAG, &bc.list,
			"the benchmarks and what they measure"),
		MMF_OPT_END
	};
	const struct mmf_opt *const tables[] = { opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "bench",
		.synopsis = "NAME...|all [--runs N] [--json] [--mem MIB] | --list",
		.tables = tables, .epilog = epilog, .max_args = -1,
	};
	const char *swaps[MMF_NR_SWAPS];
	struct mmf_bench_ctx ctx;
	struct mmf_env env;
	char err[512];
	int failed = 0;
	int first = mmf_opts_parse(&spec, argc, argv);

	if (bc.list) {
		for (size_t i = 0; i < mmf_nr_benches; i++)
			printf("%-15s %s\n", mmf_benches[i].name, mmf_benches[i].help);
		return 0;
	}
	if (first == argc) {
		mmf_warnx_("bench: name a benchmark or 'all' (see --list)");
		return 2;
	}
	for (int i = first; i < argc; i++)
		/* a bad value (exit 1), not a bad command line: README's table */
		if (strcmp(argv[i], "all") && !mmf_bench_find(argv[i]))
			mmf_die("bench: unknown benchmark '%s' (see --list)", argv[i]);
	if (geteuid())
		mmf_die("bench: needs root (swap devices, THP knobs)");
	mmf_bench_ctx_default(&ctx);
	if (bc.mem)
		ctx.mem_bytes = bc.mem;
	if (swap_setup(ctx.mem_bytes, &env, err, sizeof(err)))
		mmf_die("bench: %s", err);
	for (int i = 0; i < env.nr_swaps; i++)
		swaps[i] = env.swaps[i];
	ctx.nr_swaps = env.nr_swaps;
	ctx.swaps = swaps;
	ctx.swap_prios = env.set.prio;
	ctx.j = env.j;
	if (!bc.json)
		printf("bench: %zu MiB, %d CPU(s), %d swap device(s) of ours, %d run(s) each\n",
		       ctx.mem_bytes >> 20, ctx.cpus, ctx.nr_swaps, bc.runs);
	for (int i = first; i < argc; i++)
		for (size_t k = 0; k < mmf_nr_benches; k++)
			if (!strcmp(argv[i], "all") || !strcmp(argv[i], mmf_benches[k].name))
				failed |= run_bench(&bc, &mmf_benches[k], &ctx) > 0;
	if (mmf_env_teardown(&env)) {
		mmf_warnx_("bench: some changes were left for 'mmfuzz cleanup'");
		failed = 1;
	}
	return failed;
}
