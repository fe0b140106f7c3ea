// SPDX-License-Identifier: GPL-2.0
/* mmfuzz afl-target: the AFL++ engine's fork server, started by afl-fuzz. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/afltarget.h"
#include "cmd/cmds.h"
#include "store/tally.h"
#include "stressors/stressor.h"
#include "util/util.h"
#include "vm/vm.h"

static const char epilog[] =
	"afl-fuzz starts it ('mmfuzz campaign --engine afl' does that):\n"
	"  afl-fuzz -i SEEDS -o OUT -- mmfuzz afl-target --store S [options] @@\n"
	"Each input is run once in a serving guest with KCOV; its edges go into\n"
	"AFL++'s map, its reports into the store and to AFL++ as crashes.\n";

/* What the options set. */
static struct afl_cmd {
	struct mmf_afl_target_opts o;
	const char *arch, *kernel, *initrd, *focus, *weights, *mmfuzz, *stress;
	const char *user[12];
	/* The guest's own: --stress (its list), then --lkdtm-tag for the self-test. */
	const char *extra[5];
	char lkdtm[64];
} ac = {
	.o = { .go = { .guest = { .mem_mb = 1024, .cpus = 2 }, .timeout_ms = 30000 } },
	.arch = "x86_64", .stress = mmf_stress_default, .extra = { "--stress" },
};

/* --selftest-lkdtm N:TYPE: execution N ends in LKDTM TYPE, by a tag of its own. */
static int parse_selftest(const char *arg, void *dst, char *err, size_t n)
{
	const char *colon = strchr(arg, ':');
	char num[16] = "";
	long long at;

	if (colon && colon - arg < (int)sizeof(num))
		snprintf(num, sizeof(num), "%.*s", (int)(colon - arg), arg);
	if (!colon || !colon[1] || mmf_opt_num(num, 1, INT32_MAX, &at)) {
		snprintf(err, n, "is not N:TYPE, e.g. 10:WARNING");
		return -1;
	}
	ac.o.selftest_exec = at;
	snprintf(ac.lkdtm, sizeof(ac.lkdtm), MMF_AFL_SELFTEST_TAG ":%s", colon + 1);
	ac.extra[2] = "--lkdtm-tag";
	ac.extra[3] = ac.lkdtm;
	return 0;
}

static const struct mmf_opt afl_opts[] = {
	CMD_OPT_ARCH(&ac.arch),
	CMD_OPT_KERNEL(&ac.kernel, "default"),
	CMD_OPT_INITRAMFS(&ac.initrd),
	MMF_OPT("guest-mmfuzz", "FILE", MMF_OPT_STR, &ac.mmfuzz,
		"the guests' mmfuzz disk image (scripts/build-initramfs.sh\n"
		"prints it)",
		.def = "the one built with the initramfs, or the initramfs's own"),
	CMD_OPT_MEM(&ac.o.go.guest.mem_mb),
	CMD_OPT_CPUS(&ac.o.go.guest.cpus),
	CMD_OPT_APPEND(&ac.o.go.guest.append),
	CMD_OPT_TIMEOUT(&ac.o.go.timeout_ms),
	MMF_OPT("work", "DIR", MMF_OPT_STR, &ac.o.go.workdir,
		"guest consoles (boot-N/) and this proxy's log go here"),
	MMF_OPT("store", "DIR", MMF_OPT_STR, &ac.o.store, "the crash store for findings"),
	MMF_OPT("seeds", "FILE", MMF_OPT_STR, &ac.o.seeds,
		"'seed-HASH SOURCE' lines: a finding of a seed run unchanged\n"
		"is found by SOURCE in the store's meta, others by the fuzzer",
		.def = "none: every finding is the fuzzer's"),
	MMF_OPT("cover", "DIR", MMF_OPT_STR, &ac.o.cover,
		"append the PCs reached (pcs) and samples (cover.jsonl) here"),
	MMF_OPT("focus-file", "FILE", MMF_OPT_STR, &ac.focus,
		"coverage focus: address ranges, one 'lo-hi' per line", .def = "all PCs"),
	MMF_OPT("weights", "FILE", MMF_OPT_STR, &ac.weights,
		"PCs that weigh more: 'WEIGHT lo-hi' lines", .def = "none"),
	MMF_OPT("stress", "LIST", MMF_OPT_STR, &ac.stress,
		"stressors beside the programs in the guest (see 'mmfuzz stress\n"
		"--list'): 'all', 'none' or NAME[:KEY=N...][,NAME...]"),
	MMF_OPT("selftest-lkdtm", "N:TYPE", MMF_OPT_FN, &ac,
		"crash-path self-test: execution N ends in LKDTM TYPE", .fn = parse_selftest,
		.hook = 1),
	CMD_OPT_GUEST_ARG(ac.user, ARRAY_SIZE(ac.user) - 1),
	MMF_OPT_END
};

/* The focus and the weights of the options' files, into o. */
static void load_focus(struct mmf_focus_weights *fw)
{
	char err[256], *text;

	if (ac.focus) {
		ac.o.go.focus = mmf_read_file(ac.focus, NULL);
		if (!ac.o.go.focus)
			mmf_die("afl-target: cannot read the focus %s: %s", ac.focus,
				strerror(errno));
	}
	if (!ac.weights)
		return;
	text = mmf_read_file(ac.weights, NULL);
	if (!text)
		mmf_die("afl-target: cannot read the weights %s: %s", ac.weights, strerror(errno));
	if (mmf_focus_weights_parse(text, fw, err, sizeof(err)))
		mmf_die("afl-target: %s: %s", ac.weights, err);
	free(text);
	ac.o.weights = fw;
}

/* afl-fuzz drops its target's output: the proxy's lines (and stderr) go to a file. */
static FILE *open_log(void)
{
	char *log = mmf_xasprintf("%s/afl-target.log", ac.o.go.workdir);
	FILE *info = fopen(log, "a");

	if (!info)
		mmf_die("afl-target: %s: %s", log, strerror(errno));
	setvbuf(info, NULL, _IOLBF, 0);
	if (dup2(fileno(info), STDERR_FILENO) < 0)
		mmf_die("afl-target: stderr: %s", strerror(errno));
	free(log);
	return info;
}

int cmd_afl_target(int argc, char **argv)
{
	const struct mmf_opt *const tables[] = { afl_opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "afl-target", .synopsis = "--store DIR --work DIR [options] INPUT",
		.tables = tables, .epilog = epilog, .max_args = 1,
	};
	struct mmf_guest_argv gargs = { 0 };
	struct mmf_focus_weights fw;
	struct mmf_stress_sel sel;
	struct mmf_vm_images im;
	char err[512], *plus;
	int i = mmf_opts_parse(&spec, argc, argv), r;

	if (i == argc || !ac.o.store || !ac.o.go.workdir) {
		mmf_warnx_("afl-target: give --store, --work and the input file");
		return MMF_EXIT_USAGE;
	}
	ac.o.input = argv[i];
	if (mmf_afl_target_check(err, sizeof(err)))
		mmf_die("afl-target: %s", err);
	if (mmf_stress_parse(ac.stress, &sel, err, sizeof(err)))
		mmf_die("afl-target: %s", err);
	/* The kernel command line carries no commas: '+' separates too. */
	plus = mmf_xstrdup(ac.stress);
	for (char *c = plus; *c; c++)
		*c = *c == ',' ? '+' : *c;
	ac.extra[1] = plus;
	cmd_writable_dir("afl-target", "the store", ac.o.store);
	cmd_writable_dir("afl-target", "the work directory", ac.o.go.workdir);
	load_focus(&fw);
	if (mmf_vm_guest_setup(&ac.o.go.guest, ac.arch, ac.kernel, ac.initrd, &im, err,
			       sizeof(err)))
		mmf_die("afl-target: %s", err);
	ac.o.kernel_name = im.kernel;
	if (ac.mmfuzz)
		ac.o.go.guest.mmfuzz = ac.mmfuzz;
	mmf_guest_argv_list(&gargs, ac.extra);
	mmf_guest_argv_list(&gargs, ac.user);
	if (mmf_guest_argv_check(&gargs, err, sizeof(err)))
		mmf_die("afl-target: %s", err);
	ac.o.go.guest.guest_args = gargs.v;
	ac.o.go.info = open_log();
	r = mmf_afl_target(&ac.o, err, sizeof(err));
	if (r)
		mmf_warnx_("afl-target: %s", err);
	mmf_vm_images_free(&im);
	fclose(ac.o.go.info);
	free((char *)ac.o.go.focus);
	if (ac.o.weights)
		mmf_focus_weights_free(&fw);
	free(plus);
	return r ? MMF_EXIT_ERROR : 0;
}
