// SPDX-License-Identifier: GPL-2.0
/* mmfuzz vm: one guest running the fuzzer, on KVM or TCG. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmds.h"
#include "campaign/afl.h"
#include "campaign/campaign.h"
#include "campaign/receive.h"
#include "store/tally.h"
#include "util/util.h"
#include "vm/vm.h"

/* Boots before a guest that never runs a program is given up. */
#define BOOT_TRIES	3

static const char epilog[] =
	"Options after -- go to the guest's 'mmfuzz fuzz --native' as they are, after\n"
	"those of --guest-arg.\n"
	"KVM when /dev/kvm works, else TCG (10 times slower: every timeout grows);\n"
	"MMFUZZ_ACCEL=tcg or kvm forces one.\n"
	"Findings (the guest's oracles' on its findings channel, its kernel's first\n"
	"report on the console) go into OUT/crashes; a summary by title ends the run\n"
	"and goes to OUT/summary.json.\n"
	"Exit status: 0 the guest fuzzed and powered off with no new title, 3 a title\n"
	"new to OUT/crashes, 1 anything else (no boot, QEMU failed, deadline).\n";

static volatile sig_atomic_t stop;

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

/* The AFL++ engine: a campaign of one guest, the same summary and status. */
static int afl_vm(struct mmf_campaign_opts *co, struct mmf_vm_images *im, char *err, size_t n)
{
	struct mmf_campaign_stats st;
	struct sigaction sa = { .sa_handler = on_signal };
	char *summary;
	int rc;

	printf("mmfuzz: %s guest on %s, engine afl, for %llds, output in %s\n", co->arch->name,
	       mmf_vm_accel_name(co->accel), (long long)co->duration_ms / 1000, co->out);
	fflush(stdout);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	rc = mmf_afl_campaign_run(co, &st, err, n);
	if (rc)
		mmf_warnx_("vm: %s", err);
	printf("mmfuzz: %d boot(s), %llu program(s)\n", st.boots,
	       (unsigned long long)st.programs);
	mmf_tally_print(&st.tally, stdout);
	summary = mmf_xasprintf("%s/summary.json", co->out);
	if (mmf_tally_json(&st.tally, summary, NULL)) {
		mmf_warnx_("vm: cannot write %s: %s", summary, strerror(errno));
		rc = -1;
	}
	free(summary);
	rc = rc ? MMF_EXIT_ERROR : mmf_tally_exit(&st.tally);
	mmf_tally_free(&st.tally);
	mmf_vm_images_free(im);
	return rc;
}

/*
 * The guest's options: budget, seed, a program timeout that scales with
 * accel, then --guest-arg's and those after --.
 */
static void guest_argv(struct mmf_guest_argv *a, int64_t duration_ms, uint64_t seed,
		       enum mmf_vm_accel accel, const char *const *gopts, char **rest)
{
	*a = (struct mmf_guest_argv){ 0 };
	mmf_guest_argv_opt(a, "--duration", "%lldms", (long long)duration_ms);
	mmf_guest_argv_opt(a, "--seed", "%llu", (unsigned long long)seed);
	mmf_guest_argv_timeout(a, accel);
	mmf_guest_argv_list(a, gopts);
	mmf_guest_argv_list(a, (const char *const *)rest);
}

int cmd_vm(int argc, char **argv)
{
	const char *arch = "x86_64", *kernel = NULL, *initrd = NULL, *out = "mmfuzz-vm";
	const char *gopts[16] = { 0 };
	struct mmf_vm_config c = {
		.mem_mb = 1024, .cpus = 2, .numa_nodes = 2, .zram_mb = 64,
		.disks = mmf_vm_default_disks, .nr_disks = mmf_vm_nr_default_disks,
	};
	struct mmf_vm_run_opts ro = { .info = stdout, .stop = &stop, .duration_ms = 600000 };
	uint64_t seed = (uint64_t)time(NULL);
	bool echo = false, afl;
	const char *engine = NULL, *corpus[16] = { 0 }, *focus = NULL;
	int vms = 1;
	const struct mmf_opt opts[] = {
		CMD_OPT_ARCH(&arch),
		CMD_OPT_KERNEL(&kernel, "default"),
		CMD_OPT_INITRAMFS(&initrd),
		CMD_OPT_DURATION(&ro.duration_ms, "the guest fuzzer's budget"),
		MMF_OPT("vms", "N", MMF_OPT_INT, &vms,
			"guests: 1 ('mmfuzz campaign' runs several)", .lo = 1, .hi = 64),
		CMD_OPT_MEM(&c.mem_mb),
		CMD_OPT_CPUS(&c.cpus),
		MMF_OPT("zram", "MB", MMF_OPT_INT, &c.zram_mb,
			"the guest's zram swap device, 0 for none", .hi = 1 << 20),
		CMD_OPT_SEED(&seed),
		CMD_OPT_OUT(&out, "console.log, exec.log, crashes/ go here"),
		MMF_OPT("console", NULL, MMF_OPT_FLAG, &echo,
			"copy the guest's console to stdout"),
		CMD_OPT_APPEND(&c.append),
		CMD_OPT_GUEST_ARG(gopts, ARRAY_SIZE(gopts) - 1),
		MMF_OPT("engine", "E", MMF_OPT_STR, &engine,
			"afl: AFL++ over KCOV on the host (a campaign of one guest,\n"
			"see 'mmfuzz campaign'); mmfuzz: the guest's own loop",
			.def = "mmfuzz"),
		MMF_OPT("corpus", "DIR", MMF_OPT_STRS, corpus,
			"seeds (repeatable); none: generation alone", .hi = ARRAY_SIZE(corpus) - 1,
			.def = "the project's corpus/"),
		MMF_OPT("focus", "SPEC", MMF_OPT_STR, &focus,
			"afl: the coverage that counts: all, mm, FILE[,FILE...]", .def = "mm"),
		MMF_OPT_END
	};
	const struct mmf_opt *const tables[] = { opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "vm", .synopsis = "--arch x86_64|arm64 [options] [-- guest fuzzer options]",
		.tables = tables, .epilog = epilog, .max_args = -1,
	};
	struct sigaction sa = { .sa_handler = on_signal };
	char err[512];
	char *console, *exec_log, *work, *line, *store, *summary;
	struct mmf_tally tally = { 0 };
	struct mmf_receiver rx;
	struct mmf_guest_argv gargs;
	struct mmf_vm_run_result r = { 0 };
	struct mmf_vm_images im;
	int rc = 1, found;
	int i = mmf_opts_parse(&spec, argc, argv);

	c.arch = mmf_vm_arch_find(arch);
	if (!c.arch)
		mmf_die("vm: unknown arch '%s' (x86_64 or arm64)", arch);
	if (vms != 1)
		mmf_die("vm: runs one guest; 'mmfuzz campaign' runs several");
	if (mmf_mkdir_p(out, 0755))
		mmf_die("vm: cannot create output directory %s: %s", out, strerror(errno));
	ro.echo = echo ? stdout : NULL;
	c.accel = mmf_vm_accel_detect(c.arch, NULL);

	guest_argv(&gargs, ro.duration_ms, seed, c.accel, gopts, argv + i);
	c.guest_args = gargs.v;
	/* Refuse options the command line cannot carry before fetching anything. */
	line = mmf_guest_argv_check(&gargs, err, sizeof(err)) ? NULL :
								 mmf_vm_cmdline(&c, err, sizeof(err));
	if (!line)
		mmf_die("vm: %s", err);
	free(line);

	if (mmf_vm_images(c.arch, kernel, initrd, &im, err, sizeof(err)))
		mmf_die("vm: %s", err);
	print_images(c.arch, &im, kernel != NULL);
	c.kernel = im.kernel;
	c.initrd = im.initrd;
	c.mmfuzz = im.mmfuzz;
	/* Now that there is a kernel: does it boot under KVM? */
	c.accel = mmf_vm_accel_detect(c.arch, c.kernel);
	{
		struct mmf_campaign_opts co = {
			.arch = c.arch, .accel = c.accel, .kernel = im.kernel, .initrd = im.initrd,
			.mmfuzz = im.mmfuzz, .out = out, .vms = 1, .mem_mb = c.mem_mb, .cpus = c.cpus,
			.duration_ms = ro.duration_ms, .guest_args = gopts, .focus = focus,
			.stop = (volatile int *)&stop, .info = stdout,
		};
		if (mmf_campaign_engine(&co, engine, &im, corpus, &afl, err, sizeof(err)))
			mmf_die("vm: %s", err);
		if (afl && i < argc)
			mmf_die("vm: options after -- are for the mmfuzz engine's loop");
		if (afl)
			return afl_vm(&co, &im, err, sizeof(err));
	}
	guest_argv(&gargs, ro.duration_ms, seed, c.accel, gopts, argv + i);
	work = mmf_xasprintf("%s/scratch", out);
	exec_log = mmf_xasprintf("%s/exec.log", out);
	console = mmf_xasprintf("%s/console.log", out);
	c.workdir = work;
	c.exec_log = exec_log;
	ro.console_log = console;
	store = mmf_xasprintf("%s/crashes", out);
	rx = (struct mmf_receiver){
		.store = store, .kernel = im.kernel, .arch = c.arch->name, .tally = &tally,
		.info = stdout, .who = "vm", .console_file = console,
	};
	mmf_sb_init(&rx.buf);
	c.findings = true;
	ro.findings = mmf_receive_cb;
	ro.ctx = &rx;
	printf("mmfuzz: %s guest on %s, %d CPUs, %d MiB, fuzzing for %llds with seed %llu; "
	       "console in %s, execution log in %s\n", c.arch->name,
	       mmf_vm_accel_name(c.accel), c.cpus, c.mem_mb, (long long)ro.duration_ms / 1000,
	       (unsigned long long)seed, console, exec_log);
	fflush(stdout);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	/* A kernel that dies before the first program is a boot failure, not a finding. */
	for (int boot = 1; boot <= BOOT_TRIES && !stop; boot++) {
		if (mmf_vm_run(&c, &ro, &r, err, sizeof(err)))
			mmf_die("vm: %s", err);
		if (r.boot_ms >= 0 || r.stopped)
			break;
		/* Init ran and ended the guest: the fuzzer failed, booting again won't help. */
		if (r.powered_off) {
			printf("mmfuzz: the guest's fuzzer ran no program (see %s)\n", console);
			break;
		}
		/* A nested KVM can open, make VMs, and still fail to run a guest. */
		if (c.accel == MMF_VM_KVM && r.init_ms < 0) {
			printf("mmfuzz: the guest did not reach init under KVM (see %s): "
			       "falling back to TCG\n", console);
			c.accel = MMF_VM_TCG;
			guest_argv(&gargs, ro.duration_ms, seed, c.accel, gopts, argv + i);
			continue;
		}
		printf("mmfuzz: boot %d of %d: no program ran (a boot failure, not a finding; "
		       "see %s)\n", boot, BOOT_TRIES, console);
	}
	rmdir(work);

	printf("mmfuzz: guest ran %.1f s, %llu program(s) on the execution log; %s\n",
	       r.total_ms / 1000.0, (unsigned long long)r.programs,
	       r.powered_off ? "it powered off" :
	       r.stopped ? "stopped on request" :
	       r.timed_out ? "killed at its deadline" :
	       r.exited ? "QEMU exited without the guest's power-off (a panic?)" : "?");
	found = r.programs ? mmf_campaign_save_console(&rx, out, console, exec_log, err,
							 sizeof(err)) : 0;
	if (found < 0 || r.failed)
		mmf_warnx_("vm: %s", found < 0 ? err : rx.err);
	if (found > 0)
		printf("mmfuzz: the programs the guest ran are in %s: the culprit is most "
		       "likely among the last\n", exec_log);
	mmf_tally_print(&tally, stdout);
	summary = mmf_xasprintf("%s/summary.json", out);
	if (mmf_tally_json(&tally, summary, NULL)) {
		mmf_warnx_("vm: cannot write %s: %s", summary, strerror(errno));
		found = -1;
	}
	free(summary);
	if (found < 0 || r.failed)
		rc = MMF_EXIT_ERROR;
	else if (mmf_tally_exit(&tally) == MMF_EXIT_FOUND)
		rc = MMF_EXIT_FOUND;
	else if (r.powered_off && r.programs)
		rc = MMF_EXIT_CLEAN;
	mmf_tally_free(&tally);
	mmf_receiver_free(&rx);
	mmf_vm_images_free(&im);
	free(work);
	free(exec_log);
	free(console);
	free(store);
	return rc;
}
