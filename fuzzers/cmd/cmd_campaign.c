// SPDX-License-Identifier: GPL-2.0
/* mmfuzz campaign: N guests fuzzing in parallel, findings into a crash store. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/campaign.h"
#include "cmd/cmds.h"
#include "store/store.h"
#include "util/util.h"

static const char usage[] =
	"usage: mmfuzz campaign [options]\n"
	"  --arch A            x86_64 or arm64 (default x86_64)\n"
	"  --vms N             guests in parallel (default 1)\n"
	"  --duration T        budget, e.g. 10m, 1h (default 10m)\n"
	"  --out DIR           crashes/, boot-crashes/, vm-N/ (default mmfuzz-campaign)\n"
	"  --kernel IMAGE      kernel to boot (default: newest 'make kernel', else Debian's)\n"
	"  --vmlinux FILE      symbolize reports with this vmlinux\n"
	"  --initramfs FILE    initramfs (default: built by scripts/build-initramfs.sh)\n"
	"  --mem MB, --cpus N  per guest (default 1024, 2)\n"
	"  --hang-timeout T    no console output this long is a hang (default scaled)\n"
	"  --guest-arg ARG     pass ARG to the guest's 'mmfuzz fuzz' (repeatable)\n"
	"  --selftest-lkdtm T,T...  crash-path self-test: boot k provokes LKDTM type k;\n"
	"                           ends when each type was reported\n"
	"A summary by title ends the run, also as OUT/summary.json.\n"
	"exit status: 0 no new title, 3 a title new to OUT/crashes, 1 error (a bad\n"
	"kernel, an unwritable store, 3 failed boots in a row), 2 usage\n";

static volatile int stop;

static void on_stop(int sig)
{
	stop = 1;
}

int cmd_campaign(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "arch", required_argument, NULL, 'a' },
		{ "vms", required_argument, NULL, 'n' },
		{ "duration", required_argument, NULL, 'd' },
		{ "out", required_argument, NULL, 'o' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "vmlinux", required_argument, NULL, 'v' },
		{ "initramfs", required_argument, NULL, 'i' },
		{ "mem", required_argument, NULL, 'm' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "hang-timeout", required_argument, NULL, 'H' },
		{ "guest-arg", required_argument, NULL, 'g' },
		{ "selftest-lkdtm", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct mmf_campaign_opts o = {
		.vms = 1, .mem_mb = 1024, .cpus = 2, .duration_ms = 600000,
		.out = "mmfuzz-campaign", .stop = &stop, .info = stdout,
	};
	struct sigaction sa = { .sa_handler = on_stop };
	const char *arch = "x86_64", *kernel = NULL, *initrd = NULL, *gargs[16] = { 0 };
	struct mmf_campaign_stats st;
	struct mmf_vm_images im;
	char err[512], *summary, *extra;
	const char *lkdtm[8];
	int c, ng = 0, nl = 0, rc;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			arch = optarg;
			break;
		case 'n':
			o.vms = cmd_num("campaign", "--vms", optarg, 1, 64);
			break;
		case 'd':
		case 'H': {
			int64_t ms = parse_duration_ms(optarg);

			if (ms <= 0)
				die("campaign: bad duration '%s' (e.g. 90s, 10m, 1h)", optarg);
			*(c == 'd' ? &o.duration_ms : &o.hang_ms) = ms;
			break;
		}
		case 'o':
			o.out = optarg;
			break;
		case 'k':
			kernel = optarg;
			break;
		case 'v':
			o.vmlinux = optarg;
			break;
		case 'i':
			initrd = optarg;
			break;
		case 'm':
			o.mem_mb = cmd_num("campaign", "--mem", optarg, 256, 1 << 20);
			break;
		case 'c':
			o.cpus = cmd_num("campaign", "--cpus", optarg, 1, 64);
			break;
		case 'g':
			if (ng == (int)ARRAY_SIZE(gargs) - 1)
				die("campaign: too many --guest-arg");
			gargs[ng++] = optarg;
			break;
		case 'L':
			for (char *t = strtok(optarg, ","); t && nl < (int)ARRAY_SIZE(lkdtm); t = strtok(NULL, ","))
				lkdtm[nl++] = t;
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
		warnx_("campaign: unexpected argument '%s'", argv[optind]);
		return 2;
	}
	o.arch = mmf_vm_arch_find(arch);
	if (!o.arch)
		die("campaign: unknown arch '%s' (x86_64, arm64)", arch);
	if (o.vmlinux && access(o.vmlinux, R_OK))
		die("campaign: cannot read vmlinux %s: %s", o.vmlinux, strerror(errno));
	if (kernel && strcmp(kernel, "debian") && mmf_vm_kernel_check(o.arch, kernel, err, sizeof(err)))
		die("campaign: %s", err);
	if (mkdir_p(o.out, 0755) || access(o.out, W_OK))
		die("campaign: output directory %s is not writable: %s", o.out, strerror(errno));
	if (mmf_vm_images(o.arch, kernel, initrd, &im, err, sizeof(err)))
		die("campaign: %s", err);
	o.kernel = im.kernel;
	o.initrd = im.initrd;
	o.accel = mmf_vm_accel_detect(o.arch, o.kernel);
	o.guest_args = gargs;
	o.lkdtm = lkdtm;
	o.nr_lkdtm = nl;
	printf("mmfuzz: campaign: %d %s guest(s) under %s for %llds, kernel %s%s, output in %s\n",
	       o.vms, o.arch->name, mmf_vm_accel_name(o.accel),
	       (long long)o.duration_ms / 1000, im.kernel,
	       im.kasan == 0 ? " (KASAN is off)" : "", o.out);
	fflush(stdout);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	rc = mmf_campaign_run(&o, &st, err, sizeof(err));
	mmf_vm_images_free(&im);
	fflush(stdout);
	if (rc)
		warnx_("campaign: %s", err);
	printf("mmfuzz: campaign: %d boot(s), %d restart(s), %llu program(s), %d report(s)"
	       " (%d on the findings channels), %d hang(s), %d lost, %d boot crash(es),"
	       " %d failed boot(s)\n", st.boots, st.restarts, (unsigned long long)st.programs,
	       st.reports, st.channel, st.hangs, st.lost, st.boot_crashes, st.boot_failures);
	mmf_tally_print(&st.tally, stdout);
	summary = xasprintf("%s/summary.json", o.out);
	extra = xasprintf("\"boots\":%d,\"restarts\":%d,\"programs\":%llu,\"boot_crashes\":%d,"
			  "\"boot_failures\":%d,\"error\":%s", st.boots, st.restarts,
			  (unsigned long long)st.programs, st.boot_crashes, st.boot_failures,
			  rc ? "true" : "false");
	if (mmf_tally_json(&st.tally, summary, extra)) {
		warnx_("campaign: cannot write %s: %s", summary, strerror(errno));
		rc = -1;
	}
	free(summary);
	free(extra);
	rc = rc ? MMF_EXIT_ERROR : mmf_tally_exit(&st.tally);
	mmf_tally_free(&st.tally);
	return rc;
}
