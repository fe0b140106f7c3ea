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
#include "store/tally.h"
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
	"  --findings PORT     a guest's findings channel: send each oracle report to the\n"
	"                      host and wait until it is saved there (kvm/init gives it)\n"
	"  --lkdtm TYPE[:N]    test hook: provoke LKDTM TYPE after N programs (default 5)\n"
	"  --stall-after N     test hook: go silent after N programs\n"
	"  --kmsg-after N      test hook: a real report's line into /dev/kmsg after N programs\n"
	"  --corrupt-after N   test hook: change a page behind the model after statement N\n"
	"  --corrupt-tag T     test hook: change a page after each write of tag T\n"
	"exit status: 0 no new title, 3 a title new to OUT/crashes, 1 error, 2 usage\n";

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
		{ "findings", required_argument, NULL, 'F' },
		{ "lkdtm", required_argument, NULL, 'K' },
		{ "stall-after", required_argument, NULL, 'X' },
		{ "kmsg-after", required_argument, NULL, 'M' },
		{ "corrupt-after", required_argument, NULL, 'C' },
		{ "corrupt-tag", required_argument, NULL, 'G' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct mmf_fuzz_opts fo = {
		.seed = (uint64_t)time(NULL), .duration_ms = 600000, .out = "mmfuzz-out",
		.timeout_ms = 30000, .progress_ms = 5000, .max_calls = 24, .corrupt_after = -1,
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
			fo.max_calls = cmd_num("fuzz", "--calls", optarg, 1, MMF_MAX_STMTS / 2);
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
		case 'F':
			fo.findings = optarg;
			break;
		case 'K': {
			char *colon = strchr(optarg, ':');

			fo.lkdtm = optarg;
			fo.lkdtm_after = 5;
			if (colon) {
				*colon = '\0';
				fo.lkdtm_after = cmd_num("fuzz", "--lkdtm", colon + 1, 0, 1L << 30);
			}
			break;
		}
		case 'M':
			fo.kmsg_after = cmd_num("fuzz", "--kmsg-after", optarg, 1, 1L << 30);
			break;
		case 'C':
			fo.corrupt_after = cmd_num("fuzz", "--corrupt-after", optarg, 0, MMF_MAX_STMTS);
			break;
		case 'G':
			fo.corrupt_tag = cmd_num("fuzz", "--corrupt-tag", optarg, 1, 255);
			break;
		case 'X':
			fo.stall_after = cmd_num("fuzz", "--stall-after", optarg, 1, 1L << 30);
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
	mmf_tally_print(&st.tally, stdout);
	probe = xasprintf("%s/summary.json", fo.out);
	if (mmf_tally_json(&st.tally, probe, NULL))
		warnx_("fuzz: cannot write %s: %s", probe, strerror(errno));
	free(probe);
	if (!rc)
		rc = mmf_tally_exit(&st.tally);
	mmf_tally_free(&st.tally);
	return rc < 0 ? MMF_EXIT_ERROR : rc;
}
