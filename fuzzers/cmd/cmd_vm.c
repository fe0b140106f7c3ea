// SPDX-License-Identifier: GPL-2.0
/* mmfuzz vm: one guest running the fuzzer, on KVM or TCG. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "campaign/afl.h"
#include "campaign/campaign.h"
#include "cmd/cmds.h"
#include "util/util.h"
#include "vm/vm.h"

static const char epilog[] =
	"A campaign of one guest ('mmfuzz campaign' runs several) that boots once,\n"
	"restored from the snapshot cache when it can: it fuzzes for the budget\n"
	"and powers off, or ends at its first kernel report. Options after -- go to\n"
	"the guest's 'mmfuzz fuzz --native' as they are, after those of --guest-arg.\n"
	"KVM when /dev/kvm works, else TCG (10 times slower: every timeout grows);\n"
	"MMFUZZ_ACCEL=tcg or kvm forces one.\n"
	"The guest's console and execution log are in OUT/vm-0/boot-N/, findings in\n"
	"OUT/crashes; a summary by title ends the run and goes to OUT/summary.json.\n"
	"Exit status: 0 the guest fuzzed and powered off with no new title, 3 a title\n"
	"new to OUT/crashes, 1 anything else (no boot, QEMU failed, no end in time),\n"
	"2 usage.\n";

static volatile int stop;

static void on_signal(int sig)
{
	stop = 1;
}

static void print_images(const struct mmf_vm_arch *a, const struct mmf_vm_images *im,
			 bool asked)
{
	static const char *const kasan[] = { "KASAN unknown", "KASAN is off", "KASAN is on" };

	if (im->debian && asked)
		printf("mmfuzz: using Debian's 6.12 kernel, KASAN is off\n");
	else if (im->debian)
		printf("mmfuzz: no fuzzing kernel built (make kernel ARCH=%s): using Debian's "
		       "6.12 kernel, KASAN is off\n", a->name);
	printf("mmfuzz: kernel %s (%s)\n", im->kernel, kasan[im->kasan + 1]);
	printf("mmfuzz: initramfs %s\n", im->initrd);
	if (im->mmfuzz)
		printf("mmfuzz: the guest's mmfuzz %s\n", im->mmfuzz);
}

static struct vm_cmd {
	struct mmf_campaign_opts o;
	const char *arch, *kernel, *initrd, *engine;
	const char *gopts[16], *corpus[CMD_CORPUS_SLOTS + 1];
	uint64_t seed;
	bool echo;
} vc = {
	.o = {
		.guest = { .mem_mb = 1024, .cpus = 2 }, .vms = 1, .duration_ms = 600000,
		.out = "mmfuzz-vm", .once = true, .stop = &stop,
	},
	.arch = "x86_64", .seed = UINT64_MAX,
};

static const struct mmf_opt vm_opts[] = {
	CMD_OPT_ARCH(&vc.arch),
	CMD_OPT_KERNEL(&vc.kernel, "default"),
	CMD_OPT_INITRAMFS(&vc.initrd),
	CMD_OPT_DURATION(&vc.o.duration_ms, "the guest fuzzer's budget"),
	CMD_OPT_MEM(&vc.o.guest.mem_mb),
	CMD_OPT_CPUS(&vc.o.guest.cpus),
	MMF_OPT("seed", "N", MMF_OPT_U64, &vc.seed, "the guest fuzzer's seed", .hi = INT64_MAX,
		.def = "its own, from the clock"),
	CMD_OPT_OUT(&vc.o.out, "vm-0/, crashes/, summary.json go here"),
	MMF_OPT("console", NULL, MMF_OPT_FLAG, &vc.echo, "copy the guest's console to stdout"),
	CMD_OPT_APPEND(&vc.o.guest.append),
	CMD_OPT_GUEST_ARG(vc.gopts, ARRAY_SIZE(vc.gopts) - 1),
	MMF_OPT_END
};

int cmd_vm(int argc, char **argv)
{
	const struct mmf_opt *const tables[] = {
		vm_opts, cmd_engine_opts(&vc.engine, vc.corpus, &vc.o), NULL
	};
	const struct mmf_cmd_spec spec = {
		.name = "vm", .synopsis = "--arch x86_64|arm64 [options] [-- guest fuzzer options]",
		.tables = tables, .epilog = epilog, .max_args = -1,
	};
	struct mmf_campaign_opts *o = &vc.o;
	struct sigaction sa = { .sa_handler = on_signal };
	struct mmf_guest_argv gargs = { 0 };
	struct mmf_vm_images im;
	char err[512];
	bool afl;
	int rc, i = mmf_opts_parse(&spec, argc, argv);

	o->info = stdout;
	o->guest.arch = mmf_vm_arch_find(vc.arch);
	if (!o->guest.arch)
		mmf_die("vm: unknown arch '%s' (x86_64 or arm64)", vc.arch);
	cmd_writable_dir("vm", "output directory", o->out);
	o->echo = vc.echo ? stdout : NULL;
	/* The guest's own options win: they come last on its go line. */
	if (vc.seed != UINT64_MAX)
		mmf_guest_argv_opt(&gargs, "--seed", "%llu", (unsigned long long)vc.seed);
	mmf_guest_argv_list(&gargs, vc.gopts);
	mmf_guest_argv_list(&gargs, (const char *const *)argv + i);
	/* Refused before anything is fetched or built. */
	if (mmf_guest_argv_check(&gargs, err, sizeof(err)))
		mmf_die("vm: %s", err);
	o->guest.guest_args = gargs.v;

	if (mmf_vm_images(o->guest.arch, vc.kernel, vc.initrd, &im, err, sizeof(err)))
		mmf_die("vm: %s", err);
	print_images(o->guest.arch, &im, vc.kernel != NULL);
	mmf_vm_guest_use(&o->guest, o->guest.arch, &im);
	if (mmf_campaign_engine(o, vc.engine, &im, vc.corpus, &afl, err, sizeof(err)))
		mmf_die("vm: %s", err);
	if (afl && i < argc)
		mmf_die("vm: options after -- are for the mmfuzz engine's loop");
	printf("mmfuzz: vm: %s guest on %s, engine %s, %d CPUs, %d MiB, for %llds, output in %s\n",
	       o->guest.arch->name, mmf_vm_accel_name(o->guest.accel), afl ? "afl" : "mmfuzz",
	       o->guest.cpus, o->guest.mem_mb, (long long)o->duration_ms / 1000, o->out);
	fflush(stdout);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	rc = mmf_campaign_main(o, afl, "vm");
	mmf_vm_images_free(&im);
	return rc;
}
