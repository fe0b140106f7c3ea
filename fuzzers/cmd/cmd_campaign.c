// SPDX-License-Identifier: GPL-2.0
/* mmfuzz campaign: N guests fuzzing in parallel, findings into a crash store. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/afl.h"
#include "campaign/campaign.h"
#include "cmd/cmds.h"
#include "store/store.h"
#include "util/util.h"

static const char epilog[] =
	"A summary by title ends the run, also as OUT/summary.json.\n"
	"exit status: 0 no new title, 3 a title new to OUT/crashes, 1 error (a bad\n"
	"kernel, an unwritable store, 3 failed boots in a row), 2 usage\n";

/* --selftest-lkdtm T,T...: the types, in order. */
struct lkdtm_list {
	const char *type[8];
	int n;
};

static int parse_lkdtm(const char *arg, void *dst, char *err, size_t n)
{
	struct lkdtm_list *l = dst;
	char *copy = mmf_xstrdup(arg);

	l->n = 0;
	for (char *t = strtok(copy, ","); t; t = strtok(NULL, ",")) {
		if (l->n == (int)ARRAY_SIZE(l->type)) {
			snprintf(err, n, "names more than %zu types", ARRAY_SIZE(l->type));
			return -1;
		}
		l->type[l->n++] = t;
	}
	if (!l->n) {
		snprintf(err, n, "names no LKDTM type");
		return -1;
	}
	return 0;
}

static volatile int stop;

static void on_stop(int sig)
{
	stop = 1;
}

/* What the options set. */
static struct campaign_cmd {
	struct mmf_campaign_opts o;
	const char *arch, *kernel, *initrd, *gargs[16], *engine, *corpus[CMD_CORPUS_SLOTS + 1];
	struct lkdtm_list lkdtm;
} cc = {
	.o = {
		.guest = { .mem_mb = 1024, .cpus = 2 }, .vms = 1, .duration_ms = 600000,
		.out = "mmfuzz-campaign", .stop = &stop,
	},
	.arch = "x86_64",
};

static const struct mmf_opt campaign_opts[] = {
	CMD_OPT_ARCH(&cc.arch),
	MMF_OPT("vms", "N", MMF_OPT_INT, &cc.o.vms, "guests in parallel", .lo = 1, .hi = 64),
	CMD_OPT_DURATION(&cc.o.duration_ms, "budget"),
	CMD_OPT_OUT(&cc.o.out, "crashes/, boot-crashes/, vm-N/ go here"),
	CMD_OPT_KERNEL(&cc.kernel, "default"),
	CMD_OPT_VMLINUX(&cc.o.vmlinux),
	CMD_OPT_INITRAMFS(&cc.initrd),
	CMD_OPT_MEM(&cc.o.guest.mem_mb),
	CMD_OPT_CPUS(&cc.o.guest.cpus),
	MMF_OPT("hang-timeout", "T", MMF_OPT_MS, &cc.o.hang_ms,
		"no console output this long is a hang", .lo = 1000,
		.def = "scaled to the accelerator"),
	CMD_OPT_GUEST_ARG(cc.gargs, ARRAY_SIZE(cc.gargs) - 1),
	MMF_OPT("cover", NULL, MMF_OPT_FLAG, &cc.o.cover,
		"mmfuzz: trace the programs with KCOV and keep the PCs they\n"
		"reach in OUT/vm-N/pcs (afl: always)"),
	MMF_OPT("no-snapshot", NULL, MMF_OPT_FLAG, &cc.o.no_snapshot,
		"restart a guest after a finding by booting it, not from the\n"
		"snapshot taken at its first boot"),
	MMF_OPT("selftest-lkdtm", "T,T...", MMF_OPT_FN, &cc.lkdtm,
		"crash-path self-test: boot k provokes LKDTM type k;\n"
		"ends when each type was reported", .fn = parse_lkdtm),
	MMF_OPT_END
};

int cmd_campaign(int argc, char **argv)
{
	struct mmf_campaign_opts *o = &cc.o;
	struct sigaction sa = { .sa_handler = on_stop };
	bool afl;
	const struct mmf_opt *const tables[] = {
		campaign_opts, cmd_engine_opts(&cc.engine, cc.corpus, &cc.o), NULL
	};
	const struct mmf_cmd_spec spec = {
		.name = "campaign", .synopsis = "[options]", .tables = tables,
		.epilog = epilog, .max_args = 0,
	};
	struct mmf_vm_images im;
	char err[512];
	int rc;

	o->info = stdout;
	mmf_opts_parse(&spec, argc, argv);
	o->guest.arch = mmf_vm_arch_find(cc.arch);
	if (!o->guest.arch)
		mmf_die("campaign: unknown arch '%s' (x86_64, arm64)", cc.arch);
	if (o->vmlinux && access(o->vmlinux, R_OK))
		mmf_die("campaign: cannot read vmlinux %s: %s", o->vmlinux, strerror(errno));
	if (cc.kernel && mmf_vm_kernel_check(o->guest.arch, cc.kernel, err, sizeof(err)))
		mmf_die("campaign: %s", err);
	cmd_writable_dir("campaign", "output directory", o->out);
	if (mmf_vm_images(o->guest.arch, cc.kernel, cc.initrd, &im, err, sizeof(err)))
		mmf_die("campaign: %s", err);
	mmf_vm_guest_use(&o->guest, o->guest.arch, &im);
	o->guest.guest_args = cc.gargs;
	o->lkdtm = cc.lkdtm.type;
	o->nr_lkdtm = cc.lkdtm.n;
	if (mmf_campaign_engine(o, cc.engine, &im, cc.corpus, &afl, err, sizeof(err)))
		mmf_die("campaign: %s", err);

	printf("mmfuzz: campaign: %d %s guest(s) under %s, engine %s, for %llds, kernel %s%s,"
	       " output in %s\n", o->vms, o->guest.arch->name, mmf_vm_accel_name(o->guest.accel),
	       afl ? "afl" : "mmfuzz",
	       (long long)o->duration_ms / 1000, im.kernel,
	       im.kasan == 0 ? " (KASAN is off)" : "", o->out);
	fflush(stdout);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	rc = mmf_campaign_main(o, afl, "campaign");
	mmf_vm_images_free(&im);
	return rc;
}
