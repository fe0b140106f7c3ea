// SPDX-License-Identifier: GPL-2.0
/* mmfuzz fuzz: the native fuzzer's command line. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmds.h"
#include "fuzz/fuzz.h"
#include "util/util.h"

static const char usage[] =
	"usage: mmfuzz fuzz --native [options]\n"
	"  --native            fuzz the running kernel (it changes system swap)\n"
	"  --duration T        budget, e.g. 90s, 10m, 2h (default 10m)\n"
	"  --seed N            random seed (default: from the clock, printed)\n"
	"  --out DIR           reports, programs and exec.log (default mmfuzz-out)\n"
	"  --timeout T         per-program timeout, e.g. 30, 500ms (default 30s)\n"
	"  --calls N           maximum calls of a generated program (default 24)\n"
	CMD_ENV_USAGE
	"  --stress LIST       stressors beside the fuzzer, NAME[:KEY=N...][,NAME...],\n"
	"                      'all' or 'none' (default: see 'mmfuzz stress --list')\n"
	"  --exec-log PATH     append each program here before it runs (default OUT/exec.log)\n"
	"  --print-reports     print whole reports, not only their titles\n"
	"  --lkdtm TYPE[:N]    test hook: provoke LKDTM TYPE after N programs (default 5)\n"
	"  --stall-after N     test hook: go silent after N programs\n";

int cmd_fuzz(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "native", no_argument, NULL, 'n' },
		{ "duration", required_argument, NULL, 'd' },
		{ "seed", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "timeout", required_argument, NULL, 't' },
		{ "calls", required_argument, NULL, 'c' },
		CMD_ENV_LONGOPTS,
		{ "stress", required_argument, NULL, 'T' },
		{ "exec-log", required_argument, NULL, 'l' },
		{ "print-reports", no_argument, NULL, 'P' },
		{ "lkdtm", required_argument, NULL, 'K' },
		{ "stall-after", required_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct mmf_fuzz_opts fo = {
		.seed = (uint64_t)time(NULL), .duration_ms = 600000, .out = "mmfuzz-out",
		.timeout_ms = 30000, .progress_ms = 5000, .max_calls = 24,
	};
	struct mmf_env_opts eo = mmf_env_defaults;
	struct mmf_fuzz_stats st;
	struct mmf_env env;
	bool native = false;
	const char *stress = mmf_stress_default;
	char err[256], *probe;
	int c, fd, rc;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			native = true;
			break;
		case 'd':
			fo.duration_ms = parse_duration_ms(optarg);
			if (fo.duration_ms < 0)
				die("fuzz: bad duration '%s' (e.g. 90s, 10m, 2h)", optarg);
			break;
		case 's':
			fo.seed = strtoull(optarg, NULL, 0);
			break;
		case 'o':
			fo.out = optarg;
			break;
		case 't':
			fo.timeout_ms = parse_duration_ms(optarg);
			if (fo.timeout_ms <= 0)
				die("fuzz: bad timeout '%s' (e.g. 30, 500ms, 2m)", optarg);
			break;
		case 'c':
			fo.max_calls = MAX(1, MIN(atoi(optarg), MMF_MAX_STMTS / 2));
			break;
		case 'T':
			stress = optarg;
			break;
		case 'l':
			fo.exec_log = optarg;
			break;
		case 'P':
			fo.print_reports = true;
			break;
		case 'K': {
			char *colon = strchr(optarg, ':');

			fo.lkdtm = optarg;
			fo.lkdtm_after = 5;
			if (colon) {
				*colon = '\0';
				fo.lkdtm_after = atoi(colon + 1);
			}
			break;
		}
		case 'X':
			fo.stall_after = atoi(optarg);
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			if (cmd_env_option("fuzz", c, optarg, &eo))
				break;
			fputs(usage, stderr);
			return 2;
		}
	}
	if (mmf_stress_parse(stress, &fo.stress, err, sizeof(err)))
		die("fuzz: %s", err);
	if (!native)
		die("fuzz: refusing to fuzz the running kernel without --native");
	if (geteuid())
		die("fuzz: native fuzzing changes system swap and cgroups: run as root");
	if (mkdir_p(fo.out, 0755))
		die("fuzz: cannot create output directory %s: %s", fo.out, strerror(errno));
	probe = xasprintf("%s/exec.log", fo.out);
	fd = open(probe, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		die("fuzz: output directory %s is not writable: %s", fo.out, strerror(errno));
	close(fd);
	free(probe);
	if (mmf_env_setup(&eo, &env, err, sizeof(err)))
		die("fuzz: %s", err);
	printf("mmfuzz: fuzzing natively, seed %llu, %d swap device(s):",
	       (unsigned long long)fo.seed, env.nr_swaps);
	for (int i = 0; i < env.set.nr; i++)
		printf(" %s", env.set.path[i]);
	printf(", cgroup limit %lld MiB, output in %s\n", (long long)eo.cg_limit >> 20, fo.out);
	fflush(stdout);
	rc = mmf_fuzz_run(&fo, &env, &st);
	if (mmf_env_teardown(&env))
		rc = -1;
	printf("mmfuzz: %llu programs, %llu calls, %llu pages seen swapped, %llu report(s),"
	       " %llu timeout(s), %llu killed, %llu crashed\n",
	       (unsigned long long)st.progs, (unsigned long long)st.calls,
	       (unsigned long long)st.swapped, (unsigned long long)st.reports,
	       (unsigned long long)st.timeouts, (unsigned long long)st.killed,
	       (unsigned long long)st.crashed);
	if (!st.swapped)
		printf("mmfuzz: warning: no program reached swap in this run\n");
	return rc ? 1 : 0;
}
