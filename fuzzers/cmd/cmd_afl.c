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

int cmd_afl_target(int argc, char **argv)
{
	struct mmf_afl_target_opts o = {
		.go = { .mem_mb = 1024, .cpus = 2, .timeout_ms = 30000 },
	};
	const char *arch = "x86_64", *kernel = NULL, *initrd = NULL, *focus = NULL, *weights = NULL;
	const char *mmfuzz = NULL;
	struct mmf_focus_weights fw;
	const char *user[12] = { 0 }, *extra[5] = { "--stress" };
	struct mmf_guest_argv gargs = { 0 };
	const char *stress = mmf_stress_default, *selftest = NULL;
	char lkdtm[64];
	const struct mmf_opt opts[] = {
		CMD_OPT_ARCH(&arch),
		CMD_OPT_KERNEL(&kernel, "default"),
		CMD_OPT_INITRAMFS(&initrd),
		MMF_OPT("guest-mmfuzz", "FILE", MMF_OPT_STR, &mmfuzz,
			"the guests' mmfuzz disk image (scripts/build-initramfs.sh\n"
			"prints it)",
			.def = "the one built with the initramfs, or the initramfs's own"),
		CMD_OPT_MEM(&o.go.mem_mb),
		CMD_OPT_CPUS(&o.go.cpus),
		CMD_OPT_TIMEOUT(&o.go.timeout_ms),
		MMF_OPT("work", "DIR", MMF_OPT_STR, &o.go.workdir,
			"guest consoles (boot-N/) and this proxy's log go here"),
		MMF_OPT("store", "DIR", MMF_OPT_STR, &o.store, "the crash store for findings"),
		MMF_OPT("seeds", "FILE", MMF_OPT_STR, &o.seeds,
			"'seed-HASH SOURCE' lines: a finding of a seed run unchanged\n"
			"is found by SOURCE in the store's meta, others by the fuzzer",
			.def = "none: every finding is the fuzzer's"),
		MMF_OPT("cover", "DIR", MMF_OPT_STR, &o.cover,
			"append the PCs reached (pcs) and samples (cover.jsonl) here"),
		MMF_OPT("focus-file", "FILE", MMF_OPT_STR, &focus,
			"coverage focus: address ranges, one 'lo-hi' per line", .def = "all PCs"),
		MMF_OPT("weights", "FILE", MMF_OPT_STR, &weights,
			"PCs that weigh more: 'WEIGHT lo-hi' lines", .def = "none"),
		MMF_OPT("stress", "LIST", MMF_OPT_STR, &stress,
			"stressors beside the programs in the guest (see 'mmfuzz stress\n"
			"--list'): 'all', 'none' or NAME[:KEY=N...][,NAME...]"),
		MMF_OPT("selftest-lkdtm", "N:TYPE", MMF_OPT_STR, &selftest,
			"crash-path self-test: execution N ends in LKDTM TYPE", .hook = 1),
		CMD_OPT_GUEST_ARG(user, ARRAY_SIZE(user) - 1),
		MMF_OPT_END
	};
	const struct mmf_opt *const tables[] = { opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "afl-target", .synopsis = "--store DIR --work DIR [options] INPUT",
		.tables = tables, .epilog = epilog, .max_args = 1,
	};
	struct mmf_vm_images im;
	char err[512], *log, *plus;
	struct mmf_stress_sel sel;
	FILE *info;
	int i = mmf_opts_parse(&spec, argc, argv), r;

	if (i == argc || !o.store || !o.go.workdir) {
		mmf_warnx_("afl-target: give --store, --work and the input file");
		return MMF_EXIT_USAGE;
	}
	o.input = argv[i];
	if (mmf_afl_target_check(err, sizeof(err)))
		mmf_die("afl-target: %s", err);
	if (mmf_stress_parse(stress, &sel, err, sizeof(err)))
		mmf_die("afl-target: %s", err);
	/* The kernel command line carries no commas: '+' separates too. */
	plus = mmf_xstrdup(stress);
	for (char *c = plus; *c; c++)
		*c = *c == ',' ? '+' : *c;
	extra[1] = plus;
	if (selftest) {
		const char *colon = strchr(selftest, ':');
		long long at;
		char num[16] = "";

		if (colon && colon - selftest < (int)sizeof(num))
			snprintf(num, sizeof(num), "%.*s", (int)(colon - selftest), selftest);
		if (!colon || !colon[1] || mmf_opt_num(num, 1, INT32_MAX, &at))
			mmf_die("afl-target: --selftest-lkdtm: not N:TYPE, e.g. 10:WARNING");
		o.selftest_exec = at;
		snprintf(lkdtm, sizeof(lkdtm), MMF_AFL_SELFTEST_TAG ":%s", colon + 1);
		extra[2] = "--lkdtm-tag";
		extra[3] = lkdtm;
	}
	cmd_writable_dir("afl-target", "the store", o.store);
	cmd_writable_dir("afl-target", "the work directory", o.go.workdir);
	if (focus) {
		o.go.focus = mmf_read_file(focus, NULL);
		if (!o.go.focus)
			mmf_die("afl-target: cannot read the focus %s: %s", focus, strerror(errno));
	}
	if (weights) {
		char *text = mmf_read_file(weights, NULL);

		if (!text)
			mmf_die("afl-target: cannot read the weights %s: %s", weights, strerror(errno));
		if (mmf_focus_weights_parse(text, &fw, err, sizeof(err)))
			mmf_die("afl-target: %s: %s", weights, err);
		free(text);
		o.weights = &fw;
	}
	if (mmf_guest_repro_setup(&o.go, arch, kernel, initrd, &im, err, sizeof(err)))
		mmf_die("afl-target: %s", err);
	o.kernel_name = im.kernel;
	if (mmfuzz)
		o.go.mmfuzz = mmfuzz;
	mmf_guest_argv_list(&gargs, extra);
	mmf_guest_argv_list(&gargs, user);
	if (mmf_guest_argv_check(&gargs, err, sizeof(err)))
		mmf_die("afl-target: %s", err);
	o.go.guest_args = gargs.v;
	/* afl-fuzz drops its target's output: the proxy's lines go to a file. */
	log = mmf_xasprintf("%s/afl-target.log", o.go.workdir);
	info = fopen(log, "a");
	if (!info)
		mmf_die("afl-target: %s: %s", log, strerror(errno));
	setvbuf(info, NULL, _IOLBF, 0);
	o.go.info = info;
	if (dup2(fileno(info), STDERR_FILENO) < 0)
		mmf_die("afl-target: stderr: %s", strerror(errno));
	r = mmf_afl_target(&o, err, sizeof(err));
	if (r)
		mmf_warnx_("afl-target: %s", err);
	mmf_vm_images_free(&im);
	fclose(info);
	free(log);
	free((char *)o.go.focus);
	if (o.weights)
		mmf_focus_weights_free(&fw);
	free(plus);
	return r ? MMF_EXIT_ERROR : 0;
}
