// SPDX-License-Identifier: GPL-2.0
/* mmfuzz fuzz: the native fuzzer's command line. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmds.h"
#include "fuzz/fuzz.h"
#include "store/tally.h"
#include "util/util.h"

static const char epilog[] =
	"exit status: 0 no new title, 3 a title new to OUT/crashes, 1 error, 2 usage\n";

/* --lkdtm TYPE[:N]: the type, and the programs before it if N is given. */
static int parse_lkdtm(const char *arg, void *dst, char *err, size_t n)
{
	struct mmf_fuzz_opts *fo = dst;
	const char *colon = strchr(arg, ':');
	long long after;

	if (colon == arg || (colon && mmf_opt_num(colon + 1, 0, 1 << 30, &after))) {
		snprintf(err, n, "is not TYPE[:N] with N from 0 to %d", 1 << 30);
		return -1;
	}
	fo->lkdtm = colon ? mmf_xasprintf("%.*s", (int)(colon - arg), arg) : arg;
	if (colon)
		fo->lkdtm_after = after;
	return 0;
}

static void write_callstats(const struct mmf_callstats *cs, const char *out)
{
	char *path = mmf_xasprintf("%s/callstats.json", out);
	struct strbuf sb;

	mmf_sb_init(&sb);
	mmf_callstats_json(cs, &sb);
	if (mmf_write_file_atomic(path, sb.buf, sb.len))
		mmf_warnx_("fuzz: cannot write %s: %s", path, strerror(errno));
	mmf_sb_free(&sb);
	free(path);
}

/* What the options set (the seed's default, the time, is set at the start). */
static struct fuzz_cmd {
	struct mmf_fuzz_opts fo;
	/* fo.timeout_ms is an int: the table's durations are int64_t. */
	int64_t timeout_ms;
	bool native;
	const char *stress, *seeds;
} fc = {
	.fo = {
		.duration_ms = 600000, .out = "mmfuzz-out", .progress_ms = 5000,
		.max_calls = MMF_GENERATE_CALLS, .lkdtm_after = 5, .corrupt_after = -1,
		.seeds_from = -1,
	},
	.timeout_ms = 30000, .stress = mmf_stress_default,
};

static const struct mmf_opt fuzz_opts[] = {
	CMD_OPT_NATIVE(&fc.native, "fuzz the running kernel (it changes system swap)"),
	CMD_OPT_DURATION(&fc.fo.duration_ms, "budget"),
	CMD_OPT_SEED(&fc.fo.seed),
	CMD_OPT_OUT(&fc.fo.out, "reports, programs and exec.log"),
	CMD_OPT_TIMEOUT(&fc.timeout_ms),
	CMD_OPT_SLOWDOWN(&fc.fo.slowdown),
	MMF_OPT("calls", "N", MMF_OPT_INT, &fc.fo.max_calls,
		"maximum calls of a generated program", .lo = 1, .hi = MMF_MAX_STMTS / 2),
	MMF_OPT("stress", "LIST", MMF_OPT_STR, &fc.stress,
		"stressors beside the fuzzer (see 'mmfuzz stress --list'):\n"
		"'all', 'none' or NAME[:KEY=N...][,NAME...]"),
	MMF_OPT("exec-log", "PATH", MMF_OPT_STR, &fc.fo.exec_log,
		"append each program here before it runs", .def = "OUT/exec.log"),
	MMF_OPT("seeds", "FILE", MMF_OPT_STR, &fc.seeds,
		"programs the pool starts with, a stream of seeds ('-': standard\n"
		"input; a campaign's host sends its corpus this way)"),
	MMF_OPT("seeds-from", "N", MMF_OPT_INT, &fc.fo.seeds_from,
		"with --seeds: run each seed from the Nth (0: the first) once,\n"
		"as it is, before fuzzing", .hi = 1 << 30, .def = ""),
	MMF_OPT("print-reports", NULL, MMF_OPT_FLAG, &fc.fo.print_reports,
		"print whole reports, not only their titles"),
	MMF_OPT("no-race", NULL, MMF_OPT_FLAG, &fc.fo.no_race,
		"run racing groups once, unsynchronized (race statements do\n"
		"nothing): to measure what racing adds"),
	MMF_OPT("cover-log", "PORT", MMF_OPT_STR, &fc.fo.cover_log,
		"trace the programs with KCOV and append each new PC to PORT\n"
		"(a guest's coverage port; kvm/init gives it)"),
	MMF_OPT("findings", "PORT", MMF_OPT_STR, &fc.fo.findings,
		"a guest's findings channel: send each oracle report to the\n"
		"host and wait until it is saved there (kvm/init gives it);\n"
		"kmsg: as frame lines on the kernel log, for a host that has\n"
		"only the console (LAVA), and a test case line per finding"),
	MMF_OPT("lkdtm", "TYPE[:N]", MMF_OPT_FN, &fc.fo,
		"provoke LKDTM TYPE after N programs (N 5 if not given)",
		.fn = parse_lkdtm, .hook = 1),
	MMF_OPT("stall-after", "N", MMF_OPT_INT, &fc.fo.stall_after,
		"go silent after N programs", .lo = 1, .hi = 1 << 30, .def = "", .hook = 1),
	MMF_OPT("kcsan-race", "N", MMF_OPT_INT, &fc.fo.kcsan_race_after,
		"on a KCSAN kernel, race on its test counter after N programs",
		.lo = 1, .hi = 1 << 30, .def = "", .hook = 1),
	MMF_OPT("kmsg-after", "N", MMF_OPT_INT, &fc.fo.kmsg_after,
		"a real report's line into /dev/kmsg after N programs",
		.lo = 1, .hi = 1 << 30, .def = "", .hook = 1),
	MMF_OPT("corrupt-after", "N", MMF_OPT_INT, &fc.fo.corrupt_after,
		"change a page behind the model after statement N",
		.hi = MMF_MAX_STMTS, .def = "", .hook = 1),
	MMF_OPT("corrupt-tag", "T", MMF_OPT_INT, &fc.fo.corrupt_tag,
		"change a page after each write of tag T (one program in 8\n"
		"stores T)", .lo = 1, .hi = 255,
		.def = "", .hook = 1),
	MMF_OPT_END
};

/* How the run went: the totals, the per-call statistics and the tally. */
static int fuzz_summary(struct mmf_fuzz_stats *st, const char *out, int rc)
{
	char *path;

	printf("mmfuzz: %llu programs, %llu calls, %llu pages seen swapped, %llu report(s),"
	       " %llu timeout(s), %llu killed, %llu crashed\n",
	       (unsigned long long)st->progs, (unsigned long long)st->calls,
	       (unsigned long long)st->swapped, (unsigned long long)st->reports,
	       (unsigned long long)st->timeouts, (unsigned long long)st->killed,
	       (unsigned long long)st->crashed);
	if (!st->swapped)
		printf("mmfuzz: warning: no program reached swap in this run\n");
	mmf_callstats_print(&st->percall, stdout);
	write_callstats(&st->percall, out);
	mmf_tally_print(&st->tally, stdout);
	path = mmf_xasprintf("%s/summary.json", out);
	if (mmf_tally_json(&st->tally, path, NULL))
		mmf_warnx_("fuzz: cannot write %s: %s", path, strerror(errno));
	free(path);
	if (!rc)
		rc = mmf_tally_exit(&st->tally);
	mmf_tally_free(&st->tally);
	return rc;
}

int cmd_fuzz(int argc, char **argv)
{
	struct mmf_fuzz_opts *fo = &fc.fo;
	struct mmf_env_opts eo = mmf_env_defaults;
	struct mmf_prog *seed_progs = NULL;
	const struct mmf_opt *const tables[] = { fuzz_opts, cmd_env_opts(&eo), NULL };
	const struct mmf_cmd_spec spec = {
		.name = "fuzz", .synopsis = "--native [options]", .tables = tables,
		.epilog = epilog, .max_args = 0,
	};
	struct mmf_fuzz_stats st;
	struct mmf_env env;
	char err[256];
	int rc;

	fo->seed = (uint64_t)time(NULL);
	mmf_opts_parse(&spec, argc, argv);
	fo->timeout_ms = fc.timeout_ms;
	if (mmf_stress_parse(fc.stress, &fo->stress, err, sizeof(err)))
		mmf_die("fuzz: %s", err);
	if (!fc.native)
		mmf_die("fuzz: refusing to fuzz the running kernel without --native");
	if (fc.seeds && mmf_fuzz_seeds_read(fc.seeds, &seed_progs, &fo->nr_seeds, err, sizeof(err)))
		mmf_die("fuzz: %s", err);
	fo->seeds = seed_progs;
	if (geteuid())
		mmf_die("fuzz: native fuzzing changes system swap and cgroups: run as root");
	cmd_writable_dir("fuzz", "output directory", fo->out);
	if (mmf_env_setup(&eo, &env, err, sizeof(err)))
		mmf_die("fuzz: %s", err);
	printf("mmfuzz: fuzzing natively, seed %llu, %d swap device(s):",
	       (unsigned long long)fo->seed, env.nr_swaps);
	for (int i = 0; i < env.set.nr; i++)
		printf(" %s", env.set.path[i]);
	printf(", cgroup limit %lld MiB, %d seed(s)%s, output in %s\n", (long long)eo.cg_limit >> 20,
	       fo->nr_seeds, fo->seeds_from >= 0 && fo->seeds_from < fo->nr_seeds ? " run first" : "",
	       fo->out);
	fflush(stdout);
	rc = mmf_fuzz_run(fo, &env, &st);
	if (mmf_env_teardown(&env))
		rc = -1;
	rc = fuzz_summary(&st, fo->out, rc);
	free(seed_progs);
	return rc < 0 ? MMF_EXIT_ERROR : rc;
}
