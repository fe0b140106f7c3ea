// SPDX-License-Identifier: GPL-2.0
/* mmfuzz stress: run stressors on their own, or list them. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmds.h"
#include "fuzz/stress.h"
#include "util/util.h"

static const char usage[] =
	"usage: mmfuzz stress NAME[:KEY=N...][,NAME...] [options]   (or 'all')\n"
	"       mmfuzz stress --list\n"
	"  --duration T        how long, e.g. 30s, 10m (default 60s)\n"
	"  --out DIR           samples.jsonl and reports (default mmfuzz-out)\n"
	"  --seed N            random seed (default: from the clock)\n"
	"  --hog MB            the workload in the cgroup, 0 for none (default: the limit)\n"
	CMD_ENV_USAGE;

int cmd_stress(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "duration", required_argument, NULL, 'd' },
		{ "out", required_argument, NULL, 'o' },
		{ "seed", required_argument, NULL, 's' },
		{ "hog", required_argument, NULL, 'H' },
		CMD_ENV_LONGOPTS,
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct mmf_stress_cmd_opts o = {
		.env = mmf_env_defaults, .duration_ms = 60000, .out = "mmfuzz-out",
		.seed = (uint64_t)time(NULL),
	};
	int64_t hog_mb = -1;
	int c;
	struct strbuf sb;
	char err[256];

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			sb_init(&sb);
			mmf_stress_list(&sb);
			fputs(sb.buf, stdout);
			sb_free(&sb);
			return 0;
		case 'd':
			o.duration_ms = parse_duration_ms(optarg);
			if (o.duration_ms <= 0)
				die("stress: bad duration '%s' (e.g. 30s, 10m)", optarg);
			break;
		case 'o':
			o.out = optarg;
			break;
		case 's':
			o.seed = strtoull(optarg, NULL, 0);
			break;
		case 'H':
			hog_mb = strtoll(optarg, NULL, 10);
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			if (cmd_env_option("stress", c, optarg, &o.env))
				break;
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fputs(usage, stderr);
		return 2;
	}
	if (mmf_stress_parse(argv[optind], &o.sel, err, sizeof(err)))
		die("stress: %s", err);
	if (hog_mb < 0)
		hog_mb = o.env.cg_limit >> 20;
	o.hog_bytes = hog_mb << 20;
	if (geteuid())
		die("stress: stressors change swap, cgroups and sysfs knobs: run as root");
	if (mkdir_p(o.out, 0755))
		die("stress: cannot create output directory %s: %s", o.out, strerror(errno));
	return mmf_stress_standalone(&o) ? 1 : 0;
}
