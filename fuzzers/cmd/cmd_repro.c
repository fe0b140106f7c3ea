// SPDX-License-Identifier: GPL-2.0
/* mmfuzz repro: find and minimize the reproducer of a saved crash. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/crashdir.h"
#include "campaign/guestrepro.h"
#include "cmd/cmds.h"
#include "fuzz/env.h"
#include "fuzz/fuzz.h"
#include "fuzz/native.h"
#include "fuzz/stress.h"
#include "oracle/accounting.h"
#include "oracle/kmsg.h"
#include "util/util.h"
#include "vm/vm.h"

static const char epilog[] =
	"With --kernel or --arch, candidates run in fresh guests.\n"
	"CRASHDIR holds 'title' and the programs that ran around the crash\n"
	"(progs.N, several programs separated by '# mmfuzz: executing program').\n";

struct repro_cmd {
	struct mmf_exec_opts eo;
	struct mmf_repro_ops ops;
	struct mmf_env_opts env;
	struct mmf_guest_repro_opts go;
	bool native;
	const char *serve, *kernel, *arch, *initrd, *stress;
	struct mmf_guest_argv gargs;
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

static int parse_corrupt_tag(const char *arg, void *dst, char *err, size_t n)
{
	struct repro_cmd *rc = dst;
	long long tag;

	if (mmf_opt_num(arg, 1, 255, &tag)) {
		snprintf(err, n, "is not a number from 1 to 255");
		return -1;
	}
	rc->eo.corrupt_tag = tag;
	mmf_guest_argv_pair(&rc->gargs, "--corrupt-tag", arg);
	return 0;
}

static int parse_lkdtm_tag(const char *arg, void *dst, char *err, size_t n)
{
	struct repro_cmd *rc = dst;
	const char *colon = strchr(arg, ':');
	char tag[16] = "";
	long long v;

	if (colon && colon - arg < (int)sizeof(tag))
		snprintf(tag, sizeof(tag), "%.*s", (int)(colon - arg), arg);
	if (!colon || !colon[1] || mmf_opt_num(tag, 1, 255, &v)) {
		snprintf(err, n, "is not TAG:TYPE with TAG from 1 to 255, e.g. 0xee:WARNING");
		return -1;
	}
	rc->eo.lkdtm_tag = v;
	rc->eo.lkdtm_type = colon + 1;
	mmf_guest_argv_pair(&rc->gargs, "--lkdtm-tag", arg);
	return 0;
}

static int parse_acct_skew(const char *arg, void *dst, char *err, size_t n)
{
	struct repro_cmd *rc = dst;

	mmf_acct_skew_set("repro", arg);
	mmf_guest_argv_pair(&rc->gargs, "--acct-skew", arg);
	return 0;
}

/* Swap devices, cgroups and knobs of our own, and the kernel log, for eo. */
static void repro_env(struct repro_cmd *rc, struct mmf_env *env)
{
	char err[256];

	if (mmf_env_setup(&rc->env, env, err, sizeof(err)))
		mmf_die("repro: %s", err);
	mmf_env_exec_opts(env, &rc->eo);
	rc->eo.kmsg = mmf_kmsg_open();
}

/* The guest's end: run what the host sends on the control port. */
static int serve(struct repro_cmd *rc)
{
	struct mmf_stress_run *run = NULL;
	struct mmf_stress_target t;
	struct mmf_stress_sel sel;
	char err[256];
	struct mmf_env env;
	int fd, r;

	if (mmf_stress_parse(rc->stress, &sel, err, sizeof(err)))
		mmf_die("repro: %s", err);

	fd = open(rc->serve, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		mmf_die("repro: %s: %s", rc->serve, strerror(errno));
	rc->env.cg_limit = mmf_env_defaults.cg_limit;
	repro_env(rc, &env);
	if (sel.nr) {
		mmf_stress_target_of(&env, "/tmp/mmfuzz-serve", &t);
		if (mmf_stress_start(&sel, &t, mmf_now_ns(), &run, err, sizeof(err)))
			mmf_warnx_("repro: %s: serving without stressors", err);
	}
	r = mmf_serve(fd, &rc->eo, env.j, run);
	if (run)
		mmf_stress_stop(run);
	mmf_kmsg_close(rc->eo.kmsg);
	mmf_env_teardown(&env);
	close(fd);
	return r ? 1 : 0;
}

/* What the options set. */
static struct repro_cmd rc = {
	.eo = { .exec_log_fd = -1, .corrupt_after = -1, .hang_after = -1 },
	.ops = { .attempts = 5, .min_attempts = 2, .max_steps = 300, .log = log_line },
	.go = { .guest = { .mem_mb = 1024, .cpus = 2 }, .timeout_ms = 30000 },
	.stress = "none",
};

static const struct mmf_opt repro_opts[] = {
	CMD_OPT_NATIVE(&rc.native, "reproduce on the running kernel"),
	CMD_OPT_KERNEL(&rc.kernel, ""),
	CMD_OPT_ARCH(&rc.arch, .def = "x86_64"),
	CMD_OPT_INITRAMFS(&rc.initrd),
	CMD_OPT_MEM(&rc.go.guest.mem_mb),
	CMD_OPT_CPUS(&rc.go.guest.cpus),
	MMF_OPT("work", "DIR", MMF_OPT_STR, &rc.go.workdir, "guest consoles go here",
		.def = "/var/tmp/mmfuzz-repro.*"),
	MMF_OPT("attempts", "N", MMF_OPT_INT, &rc.ops.attempts, "runs per candidate",
		.lo = 1, .hi = 1000),
	MMF_OPT("max-steps", "N", MMF_OPT_INT, &rc.ops.max_steps,
		"minimization steps at most", .hi = 1000000),
	CMD_OPT_TIMEOUT(&rc.go.timeout_ms),
	CMD_OPT_SLOWDOWN(&rc.eo.slowdown),
	MMF_OPT("serve", "PORT", MMF_OPT_STR, &rc.serve,
		"in a guest: run what the host sends on this control port"),
	MMF_OPT("stress", "LIST", MMF_OPT_STR, &rc.stress,
		"with --serve: stressors beside the programs (see 'mmfuzz stress\n"
		"--list'): 'all', 'none' or NAME[:KEY=N...][,NAME...]"),
	MMF_OPT("swap", "PATH", MMF_OPT_STRS, rc.env.use_swaps,
		"cycle this existing swap device instead of making any\n"
		"(repeatable; for guests, whose init made them)", .hi = MMF_NR_SWAPS),
	MMF_OPT("corrupt-tag", "T", MMF_OPT_FN, &rc,
		"corrupt a page after each write of tag T", .fn = parse_corrupt_tag,
		.hook = 1),
	MMF_OPT("lkdtm-tag", "T:TYPE", MMF_OPT_FN, &rc,
		"provoke LKDTM TYPE after each write of tag T", .fn = parse_lkdtm_tag,
		.hook = 1),
	MMF_OPT("acct-skew", "C:KB", MMF_OPT_FN, &rc,
		"skew the accounting oracle's readings of C", .fn = parse_acct_skew,
		.hook = 1),
	MMF_OPT_END
};

/* Candidates run in fresh guests, their consoles in the work directory. */
static struct mmf_guest_repro *repro_guests(struct mmf_vm_images *im)
{
	static char work[] = "/var/tmp/mmfuzz-repro.XXXXXX";
	char err[512];

	if (!rc.go.workdir) {
		rc.go.workdir = mkdtemp(work);
		if (!rc.go.workdir)
			mmf_die("repro: %s: %s", work, strerror(errno));
	}
	cmd_writable_dir("repro", "work directory", rc.go.workdir);
	if (mmf_vm_guest_setup(&rc.go.guest, rc.arch, rc.kernel, rc.initrd, im, err, sizeof(err)))
		mmf_die("repro: %s", err);
	rc.go.guest.guest_args = rc.gargs.v;
	rc.go.info = stdout;
	printf("repro: %s guests under %s, kernel %s, consoles in %s\n", rc.go.guest.arch->name,
	       mmf_vm_accel_name(rc.go.guest.accel), im->kernel, rc.go.workdir);
	return mmf_guest_repro_new(&rc.go);
}

int cmd_repro(int argc, char **argv)
{
	static struct mmf_crash_progs crash;
	static struct mmf_repro_progress progress;
	const struct mmf_opt *const tables[] = { repro_opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "repro",
		.synopsis = "[--native | --kernel IMAGE --arch A] [options] CRASHDIR",
		.tables = tables, .epilog = epilog, .max_args = 1,
	};
	struct mmf_guest_repro *guest = NULL;
	struct mmf_repro_result res;
	struct mmf_vm_images im = { 0 };
	char err[512];
	struct mmf_env env;
	const char *dir;
	int r, i = mmf_opts_parse(&spec, argc, argv);

	/* Test hooks travel to the guest's server as its options. */
	if (mmf_guest_argv_check(&rc.gargs, err, sizeof(err)))
		mmf_die("repro: %s", err);

	/* One timeout: of the programs run here (eo) and of a guest's request (go). */
	rc.eo.timeout_ms = rc.go.timeout_ms;
	if (rc.serve)
		return serve(&rc);
	if (i == argc) {
		mmf_warnx_("repro: give one crash directory (see 'mmfuzz repro --help')");
		return 2;
	}
	if (rc.native == (rc.kernel || rc.arch))
		mmf_die("repro: say where: --native (the running kernel) or --kernel K --arch A");
	if (!rc.native && !mmf_vm_arch_find(rc.arch ? rc.arch : "x86_64"))
		mmf_die("repro: unknown arch '%s' (x86_64, arm64)", rc.arch);
	dir = argv[i];
	if (mmf_crash_load(dir, &crash, err, sizeof(err)))
		mmf_die("repro: %s", err);
	printf("repro: '%s': %d program(s) from %s, the newest of %d occurrence(s)\n", crash.title,
	       crash.nr, crash.path, crash.nr_occ);
	if (rc.native) {
		if (geteuid())
			mmf_die("repro: running programs natively needs root");
		rc.env = mmf_env_defaults;
		repro_env(&rc, &env);
		rc.ops.run = mmf_native_run;
		rc.ops.ctx = &rc.eo;
	} else {
		guest = repro_guests(&im);
		rc.ops.run = mmf_guest_repro_run;
		rc.ops.ctx = guest;
	}
	rc.ops.progress = &progress;
	r = mmf_crash_repro(&rc.ops, &crash, &res);
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
		mmf_die("repro: the programs could not be run");
	if (!res.found) {
		printf("repro: not reproduced from %d occurrence(s) in %d attempt(s) per candidate\n",
		       crash.nr_occ, rc.ops.attempts);
		return 1;
	}
	if (mmf_crash_save_repro(dir, crash.title, &res) < 0)
		mmf_die("repro: cannot save the reproducer: %s", mmf_store_err());
	printf("repro: reproduced '%s': %d program(s), %d -> %d calls in %d steps,"
	       " hit rate %d/%d; saved in %s\n", crash.title, res.nr_progs, res.calls_before,
	       res.calls_after, res.steps, res.hits, res.runs, dir);
	mmf_crash_progs_free(&crash);
	return 0;
}
