// SPDX-License-Identifier: GPL-2.0
/* mmfuzz stress: run stressors on their own, or list them. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmds.h"
#include "fuzz/stress.h"
#include "store/tally.h"
#include "util/util.h"

int cmd_stress(int argc, char **argv)
{
	struct mmf_stress_cmd_opts o = {
		.env = mmf_env_defaults, .duration_ms = 60000, .out = "mmfuzz-out",
		.seed = (uint64_t)time(NULL),
	};
	/* Bytes, or -1: as big as the cgroup limit, which an option may set too. */
	int64_t hog = -1;
	bool list = false;
	const struct mmf_opt opts[] = {
		MMF_OPT("list", NULL, MMF_OPT_FLAG, &list,
			"list the stressors, their options and defaults"),
		CMD_OPT_DURATION(&o.duration_ms, "how long"),
		CMD_OPT_OUT(&o.out, "samples.jsonl and reports"),
		CMD_OPT_SEED(&o.seed),
		MMF_OPT("hog", "MB", MMF_OPT_MIB, &hog, "the workload in the cgroup, 0 for none",
			.hi = 1 << 20, .def = "the cgroup limit"),
		MMF_OPT_END
	};
	const struct mmf_opt *const tables[] = { opts, cmd_env_opts(&o.env), NULL };
	const struct mmf_cmd_spec spec = {
		.name = "stress",
		.synopsis = "NAME[:KEY=N...][,NAME...] [options]   (or 'all')\n"
			    "       mmfuzz stress --list",
		.tables = tables, .max_args = 1,
		.epilog = "A stressor's finding (stress-ng's failures, a changed heap canary) is\n"
			  "saved in OUT/crashes.\n"
			  "exit status: 0 clean, 3 a stressor reported a finding, 1 error, 2 usage\n",
	};
	struct strbuf sb;
	char err[256];
	int rc, i = mmf_opts_parse(&spec, argc, argv);

	if (list) {
		mmf_sb_init(&sb);
		mmf_stress_list(&sb);
		fputs(sb.buf, stdout);
		mmf_sb_free(&sb);
		return 0;
	}
	if (i == argc) {
		mmf_warnx_("stress: name the stressors, or --list (see 'mmfuzz stress --help')");
		return 2;
	}
	if (mmf_stress_parse(argv[i], &o.sel, err, sizeof(err)))
		mmf_die("stress: %s", err);
	o.hog_bytes = hog < 0 ? o.env.cg_limit : hog;
	if (geteuid())
		mmf_die("stress: stressors change swap, cgroups and sysfs knobs: run as root");
	if (mmf_mkdir_p(o.out, 0755))
		mmf_die("stress: cannot create output directory %s: %s", o.out, strerror(errno));
	rc = mmf_stress_standalone(&o);
	return rc < 0 ? MMF_EXIT_ERROR : rc ? MMF_EXIT_FOUND : MMF_EXIT_CLEAN;
}
