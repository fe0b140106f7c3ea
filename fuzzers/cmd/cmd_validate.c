// SPDX-License-Identifier: GPL-2.0
/* mmfuzz validate: a base and a patched kernel, side by side. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmds.h"
#include "util/util.h"
#include "validate/validate.h"

static const char usage[] =
	"usage: mmfuzz validate --base A (--patched B | --patch FILE) --out DIR [options]\n"
	"  A, B: a kernel tree (built as a fuzzing kernel, cached), a kernel image,\n"
	"        'default' (the newest 'make kernel', else Debian's) or 'debian'\n"
	"  --patch FILE        patched = a copy of the tree A with FILE applied\n"
	"  --arch A            x86_64 (default) or arm64\n"
	"  --store DIR         run the reproducers of this crash store\n"
	"  --corpus DIR        run these .mmf programs (default: none)\n"
	"  --attempts N        runs of each per kernel (default 3)\n"
	"  --bench LIST        all (default), none, or NAME,NAME...\n"
	"  --runs N            benchmark runs per kernel (default 5)\n"
	"  --budget T          fuzz each kernel this long (default 0: no fuzzing)\n"
	"  --alpha P           family-wise significance level (default 0.05)\n"
	"  --min-change F      smaller relative changes are noise (default 0.05)\n"
	"  --base-append S, --patched-append S     more kernel command line\n"
	"  --base-guest-arg O, --patched-guest-arg O  more guest server options\n"
	"Writes DIR/verdict.txt and DIR/verdict.json; exit 1 if anything regressed.\n";

static void guest_arg(struct mmf_validate_side *s, const char *arg)
{
	int i = 0;

	while (s->guest_args[i])
		i++;
	if (i + 1 >= (int)ARRAY_SIZE(s->guest_args))
		die("validate: too many guest options");
	s->guest_args[i] = arg;
}

int cmd_validate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "base", required_argument, NULL, 'b' },
		{ "patched", required_argument, NULL, 'p' },
		{ "patch", required_argument, NULL, 'P' },
		{ "arch", required_argument, NULL, 'a' },
		{ "store", required_argument, NULL, 's' },
		{ "corpus", required_argument, NULL, 'c' },
		{ "attempts", required_argument, NULL, 'A' },
		{ "bench", required_argument, NULL, 'B' },
		{ "runs", required_argument, NULL, 'r' },
		{ "budget", required_argument, NULL, 'T' },
		{ "alpha", required_argument, NULL, 'l' },
		{ "min-change", required_argument, NULL, 'm' },
		{ "base-append", required_argument, NULL, '1' },
		{ "patched-append", required_argument, NULL, '2' },
		{ "base-guest-arg", required_argument, NULL, '3' },
		{ "patched-guest-arg", required_argument, NULL, '4' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static struct mmf_validate_opts o = {
		.benches = "all", .runs = 5, .attempts = 3, .alpha = 0.05, .min_change = 0.05,
	};
	const char *arch = "x86_64";
	char err[512];
	int c, rc;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			o.side[MMF_BASE].src = optarg;
			break;
		case 'p':
			o.side[MMF_PATCHED].src = optarg;
			break;
		case 'P':
			o.side[MMF_PATCHED].patch = optarg;
			break;
		case 'a':
			arch = optarg;
			break;
		case 's':
			o.store = optarg;
			break;
		case 'c':
			o.corpus = optarg;
			break;
		case 'A':
			o.attempts = cmd_num("validate", "--attempts", optarg, 1, 1000);
			break;
		case 'B':
			o.benches = optarg;
			break;
		case 'r':
			o.runs = cmd_num("validate", "--runs", optarg, 1, 1000);
			break;
		case 'T':
			o.budget_ms = parse_duration_ms(optarg);
			if (o.budget_ms < 0)
				die("validate: bad budget '%s' (e.g. 10m)", optarg);
			break;
		case 'l':
			o.alpha = atof(optarg);
			break;
		case 'm':
			o.min_change = atof(optarg);
			break;
		case '1':
		case '2':
			o.side[c - '1'].append = optarg;
			break;
		case '3':
		case '4':
			guest_arg(&o.side[c - '3'], optarg);
			break;
		case 'o':
			o.out = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind != argc) {
		warnx_("validate: unexpected argument '%s'", argv[optind]);
		return 2;
	}
	if (!o.side[MMF_PATCHED].src && o.side[MMF_PATCHED].patch)
		o.side[MMF_PATCHED].src = o.side[MMF_BASE].src;
	if (!o.side[MMF_BASE].src || !o.side[MMF_PATCHED].src || !o.out)
		die("validate: give --base, --patched (or --patch) and --out (see --help)");
	if (o.runs < 2 || o.attempts < 1 || o.alpha <= 0 || o.alpha >= 1)
		die("validate: --runs at least 2, --attempts at least 1, --alpha in (0, 1)");
	o.arch = mmf_vm_arch_find(arch);
	if (!o.arch)
		die("validate: unknown arch '%s' (x86_64, arm64)", arch);
	if (mkdir_p(o.out, 0755) || access(o.out, W_OK))
		die("validate: output directory %s is not writable", o.out);
	o.info = stdout;
	rc = mmf_validate(&o, err, sizeof(err));
	if (rc < 0)
		die("validate: %s", err);
	return rc;
}
