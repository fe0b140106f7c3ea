// SPDX-License-Identifier: GPL-2.0
/* mmfuzz repro: find and minimize the reproducer of a saved crash. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/guestrepro.h"
#include "cmd/cmds.h"
#include "fuzz/env.h"
#include "fuzz/fuzz.h"
#include "fuzz/native.h"
#include "oracle/accounting.h"
#include "oracle/kmsg.h"
#include "util/util.h"
#include "vm/vm.h"

static const char usage[] =
	"usage: mmfuzz repro [--native | --kernel K --arch A] [options] CRASHDIR\n"
	"  --native          reproduce on the running kernel\n"
	"  --kernel K        reproduce in fresh guests booting K (a kernel image, or\n"
	"                    'default': the newest 'make kernel', else Debian's)\n"
	"  --arch A          the guests' arch: x86_64 (default), arm64\n"
	"  --initrd F        the guests' initramfs (default: built)\n"
	"  --mem MB, --cpus N  per guest (default 1024, 2)\n"
	"  --work DIR        guest consoles go here (default /var/tmp/mmfuzz-repro.*)\n"
	"  --attempts N      runs per candidate (default 5)\n"
	"  --max-steps N     minimization steps at most (default 300)\n"
	"  --timeout T       per-program timeout (default 30s)\n"
	"  --corrupt-tag T   test hook: corrupt a page after each write of tag T\n"
	"  --lkdtm-tag T:TYPE  test hook: provoke LKDTM TYPE after each write of tag T\n"
	"  --acct-skew C:KB  test hook: skew the accounting oracle's readings of C\n"
	"CRASHDIR holds 'title' and the programs that ran around the crash\n"
	"(progs.N, several programs separated by '# mmfuzz: executing program').\n"
	"In a guest, 'mmfuzz repro --serve PORT [--swap DEV]...' runs what the host sends.\n";

struct repro_cmd {
	struct mmf_exec_opts eo;
	struct mmf_repro_ops ops;
	struct mmf_env_opts env;
	struct mmf_guest_repro_opts go;
	const char *native, *serve, *kernel, *arch, *initrd;
	const char *gargs[8];
	int ng, nswaps;
	char tagbuf[16];
};

static void log_line(void *ctx, const char *fmt, ...)
{
	va_list ap;

	printf("repro: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* Test hooks travel to the guest's server as its options. */
static void guest_arg(struct repro_cmd *rc, const char *opt, const char *val)
{
	if (rc->ng + 3 > (int)ARRAY_SIZE(rc->gargs))
		die("repro: too many guest options");
	rc->gargs[rc->ng++] = opt;
	rc->gargs[rc->ng++] = val;
}

static int parse(struct repro_cmd *rc, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "native", no_argument, NULL, 'n' },
		{ "serve", required_argument, NULL, 'S' },
		{ "swap", required_argument, NULL, 'W' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "arch", required_argument, NULL, 'A' },
		{ "initrd", required_argument, NULL, 'i' },
		{ "mem", required_argument, NULL, 'm' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "work", required_argument, NULL, 'w' },
		{ "attempts", required_argument, NULL, 'a' },
		{ "max-steps", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ "corrupt-tag", required_argument, NULL, 'C' },
		{ "lkdtm-tag", required_argument, NULL, 'L' },
		{ "acct-skew", required_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char *colon;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			rc->native = "";
			break;
		case 'S':
			rc->serve = optarg;
			break;
		case 'W':
			if (rc->nswaps == MMF_NR_SWAPS)
				die("repro: at most %d --swap", MMF_NR_SWAPS);
			rc->env.use_swaps[rc->nswaps++] = optarg;
			break;
		case 'k':
			rc->kernel = optarg;
			break;
		case 'A':
			rc->arch = optarg;
			break;
		case 'i':
			rc->initrd = optarg;
			break;
		case 'm':
			rc->go.mem_mb = cmd_num("repro", "--mem", optarg, 256, 1 << 20);
			break;
		case 'c':
			rc->go.cpus = cmd_num("repro", "--cpus", optarg, 1, 64);
			break;
		case 'w':
			rc->go.workdir = optarg;
			break;
		case 'a':
			rc->ops.attempts = cmd_num("repro", "--attempts", optarg, 1, 1000);
			break;
		case 's':
			rc->ops.max_steps = cmd_num("repro", "--max-steps", optarg, 0, 1000000);
			break;
		case 't':
			rc->eo.timeout_ms = parse_duration_ms(optarg);
			if (rc->eo.timeout_ms <= 0)
				die("repro: bad timeout '%s'", optarg);
			rc->go.timeout_ms = rc->eo.timeout_ms;
			guest_arg(rc, "--timeout", optarg);
			break;
		case 'C':
			rc->eo.corrupt_tag = strtol(optarg, NULL, 0);
			guest_arg(rc, "--corrupt-tag", optarg);
			break;
		case 'L':
			colon = strchr(optarg, ':');
			if (!colon || !colon[1])
				die("repro: --lkdtm-tag wants TAG:TYPE, e.g. 0xee:WARNING");
			guest_arg(rc, "--lkdtm-tag", optarg);
			rc->eo.lkdtm_tag = strtol(optarg, NULL, 0);
			rc->eo.lkdtm_type = colon + 1;
			break;
		case 'K':
			mmf_acct_skew_set("repro", optarg);
			guest_arg(rc, "--acct-skew", optarg);
			break;
		case 'h':
			fputs(usage, stdout);
			exit(0);
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	return 0;
}

/* The guest's end: run what the host sends on the control port. */
static int serve(struct repro_cmd *rc)
{
	char err[256];
	struct mmf_env env;
	int fd, r;

	fd = open(rc->serve, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die("repro: %s: %s", rc->serve, strerror(errno));
	rc->env.cg_limit = mmf_env_defaults.cg_limit;
	if (mmf_env_setup(&rc->env, &env, err, sizeof(err)))
		die("repro: %s", err);
	for (int i = 0; i < env.nr_swaps; i++)
		rc->eo.swaps[i] = env.swaps[i];
	rc->eo.cgroup_procs = env.procs[0] ? env.procs : NULL;
	mmf_env_exec_opts_c(&env, &rc->eo);
	rc->eo.kmsg = mmf_kmsg_open();
	r = mmf_serve(fd, &rc->eo, env.j);
	mmf_kmsg_close(rc->eo.kmsg);
	mmf_env_teardown(&env);
	close(fd);
	return r ? 1 : 0;
}

int cmd_repro(int argc, char **argv)
{
	static struct repro_cmd rc = {
		.eo = { .timeout_ms = 30000, .exec_log_fd = -1, .corrupt_after = -1,
			.hang_after = -1 },
		.ops = { .attempts = 5, .min_attempts = 2, .max_steps = 300, .log = log_line },
		.go = { .mem_mb = 1024, .cpus = 2, .timeout_ms = 30000 },
	};
	static struct mmf_crash_progs crash;
	struct mmf_guest_repro *guest = NULL;
	struct mmf_repro_result res;
	struct mmf_vm_images im = { 0 };
	char err[512], work[] = "/var/tmp/mmfuzz-repro.XXXXXX";
	struct mmf_env env;
	const char *dir;
	int r;

	if (parse(&rc, argc, argv))
		return 2;
	if (rc.serve)
		return serve(&rc);
	if (optind + 1 != argc) {
		warnx_("repro: give one crash directory (see --help)");
		return 2;
	}
	if (!rc.native == !(rc.kernel || rc.arch))
		die("repro: say where: --native (the running kernel) or --kernel K --arch A");
	if (!rc.native && !mmf_vm_arch_find(rc.arch ? rc.arch : "x86_64"))
		die("repro: unknown arch '%s' (x86_64, arm64)", rc.arch);
	dir = argv[optind];
	if (mmf_crash_load(dir, &crash, err, sizeof(err)))
		die("repro: %s", err);
	printf("repro: '%s': %d program(s) from %s\n", crash.title, crash.nr, crash.path);
	if (rc.native) {
		if (geteuid())
			die("repro: running programs natively needs root");
		rc.env = mmf_env_defaults;
		if (mmf_env_setup(&rc.env, &env, err, sizeof(err)))
			die("repro: %s", err);
		for (int i = 0; i < env.nr_swaps; i++)
			rc.eo.swaps[i] = env.swaps[i];
		rc.eo.cgroup_procs = env.procs[0] ? env.procs : NULL;
		mmf_env_exec_opts_c(&env, &rc.eo);
		rc.eo.kmsg = mmf_kmsg_open();
		rc.ops.run = mmf_native_run;
		rc.ops.ctx = &rc.eo;
	} else {
		if (!rc.go.workdir && !(rc.go.workdir = mkdtemp(work)))
			die("repro: %s: %s", work, strerror(errno));
		if (mkdir_p(rc.go.workdir, 0755) || access(rc.go.workdir, W_OK))
			die("repro: work directory %s is not writable", rc.go.workdir);
		if (mmf_guest_repro_setup(&rc.go, rc.arch, rc.kernel, rc.initrd, &im, err,
					  sizeof(err)))
			die("repro: %s", err);
		rc.go.guest_args = rc.gargs;
		rc.go.info = stdout;
		printf("repro: %s guests under %s, kernel %s, consoles in %s\n", rc.go.arch->name,
		       mmf_vm_accel_name(rc.go.accel), im.kernel, rc.go.workdir);
		guest = mmf_guest_repro_new(&rc.go);
		rc.ops.run = mmf_guest_repro_run;
		rc.ops.ctx = guest;
	}
	r = mmf_repro(&rc.ops, crash.progs, crash.nr, crash.title, &res);
	if (guest) {
		printf("repro: %d guest boot(s)\n", mmf_guest_repro_boots(guest));
		mmf_guest_repro_free(guest);
		mmf_vm_images_free(&im);
	} else {
		mmf_kmsg_close(rc.eo.kmsg);
		if (mmf_env_teardown(&env))
			r = -1;
	}
	if (r < 0)
		die("repro: the programs could not be run");
	if (!res.found) {
		printf("repro: not reproduced in %d attempt(s) per candidate\n", rc.ops.attempts);
		return 1;
	}
	if (mmf_crash_save_repro(dir, crash.title, &res) < 0)
		die("repro: cannot save the reproducer: %s", mmf_store_err());
	printf("repro: reproduced '%s': %d program(s), %d -> %d calls in %d steps,"
	       " hit rate %d/%d; saved in %s\n", crash.title, res.nr_progs, res.calls_before,
	       res.calls_after, res.steps, res.hits, res.runs, dir);
	mmf_crash_progs_free(&crash);
	return 0;
}
