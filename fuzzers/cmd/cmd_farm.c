// SPDX-License-Identifier: GPL-2.0
/* mmfuzz farm: campaigns as LAVA jobs, and their findings into a store. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmds.h"
#include "farm/farm.h"
#include "store/tally.h"
#include "util/util.h"

#define JOBS_SYN	"--kernel K --initramfs I --shards N --budget T --out DIR [options]"
#define DEVICE_SYN	"[--arch A] [--accel tcg|kvm] --out FILE"
#define COLLECT_SYN	"--store DIR [options] JOBLOG..."

static const char epilog[] =
	"subcommands ('mmfuzz farm SUBCOMMAND --help' for its options):\n"
	"  jobs " JOBS_SYN "\n"
	"      write a LAVA job definition per shard (OUT/shard-K.yaml): device type\n"
	"      qemu, the kernel and initramfs as its images, the shard's seed, budget and\n"
	"      fuzzer options on the kernel command line, a test monitor of the findings\n"
	"  device " DEVICE_SYN "\n"
	"      write the qemu device dictionary that runs such jobs here with lava-run\n"
	"  collect " COLLECT_SYN "\n"
	"      take the findings of job logs (LAVA's YAML log, or a console log) into\n"
	"      a store with a night entry for the batch; a log collected before counts\n"
	"      once; several collectors may share a store\n"
	"exit status: 0 clean, 3 a new title collected, 1 error, 2 usage\n";

static int parse_arch(const char *arg, void *dst, char *err, size_t n)
{
	const struct mmf_vm_arch **a = dst;

	*a = mmf_vm_arch_find(arg);
	if (!*a)
		snprintf(err, n, "is no arch (x86_64 or arm64)");
	return *a ? 0 : -1;
}

static int parse_accel(const char *arg, void *dst, char *err, size_t n)
{
	enum mmf_vm_accel *a = dst;

	if (!strcmp(arg, "tcg") || !strcmp(arg, "kvm")) {
		*a = arg[0] == 'k' ? MMF_VM_KVM : MMF_VM_TCG;
		return 0;
	}
	snprintf(err, n, "is neither tcg nor kvm");
	return -1;
}

#define OPT_ARCH(o)								\
	MMF_OPT("arch", "A", MMF_OPT_FN, &(o).guest.arch, "guest architecture: x86_64 or arm64", \
		.fn = parse_arch, .def = "x86_64")
#define OPT_ACCEL(o)								\
	MMF_OPT("accel", "tcg|kvm", MMF_OPT_FN, &(o).guest.accel,			\
		"kvm for workers with /dev/kvm (of the guest's arch); tcg runs anywhere", \
		.fn = parse_accel, .def = "tcg")

static const char *jobs_guest[MMF_FARM_MAX_ARGS + 1];
static struct mmf_farm_job_opts jobs = {
	.guest = {
		.arch = &mmf_vm_arches[0], .accel = MMF_VM_TCG, .mem_mb = 1024, .cpus = 2,
		.guest_args = jobs_guest,
	},
	.shards = 1, .budget_ms = 3600 * 1000, .zram_mb = 128, .name = "farm",
};
static const char *jobs_out;

static const struct mmf_opt jobs_opts[] = {
	MMF_OPT("kernel", "K", MMF_OPT_STR, &jobs.guest.kernel,
		"the kernel the workers boot (the bzImage or Image of 'make kernel'):\n"
		"a URL, or a file (as a file:// URL); required"),
	MMF_OPT("initramfs", "I", MMF_OPT_STR, &jobs.guest.initrd,
		"the guests' initramfs (scripts/build-initramfs.sh): a URL or a file;\n"
		"required"),
	OPT_ARCH(jobs),
	OPT_ACCEL(jobs),
	MMF_OPT("shards", "N", MMF_OPT_INT, &jobs.shards,
		"jobs, each a guest fuzzing for the budget with its own seed",
		.lo = 1, .hi = 10000),
	MMF_OPT("budget", "T", MMF_OPT_MS, &jobs.budget_ms, "fuzzing time of each shard",
		.lo = 10000, .def = "1h"),
	CMD_OPT_SEED(&jobs.seed),
	CMD_OPT_MEM(&jobs.guest.mem_mb),
	CMD_OPT_CPUS(&jobs.guest.cpus),
	MMF_OPT("zram", "MB", MMF_OPT_INT, &jobs.zram_mb,
		"each of the guest's two zram swap devices", .lo = 0, .hi = 1 << 16),
	MMF_OPT("name", "NAME", MMF_OPT_STR, &jobs.name, "the batch's name in job names"),
	CMD_OPT_GUEST_ARG(jobs_guest, MMF_FARM_MAX_ARGS),
	CMD_OPT_OUT(&jobs_out, "the directory of the job files (shard-K.yaml)"),
	MMF_OPT_END
};

static int farm_jobs(int argc, char **argv)
{
	const struct mmf_opt *const tables[] = { jobs_opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "farm jobs", .synopsis = JOBS_SYN, .tables = tables,
		.epilog = "Shard K fuzzes with seed S + K - 1. --guest-arg options reach each\n"
			  "guest's 'mmfuzz fuzz' (e.g. --stress swap+ksm, test hooks).\n",
	};
	char err[512];

	jobs.seed = (uint64_t)time(NULL);
	mmf_opts_parse(&spec, argc, argv);
	if (!jobs.guest.kernel || !jobs.guest.initrd || !jobs_out) {
		mmf_warnx_("farm jobs: --kernel, --initramfs and --out are needed");
		return MMF_EXIT_USAGE;
	}
	cmd_writable_dir("farm jobs", "output directory", jobs_out);
	if (mmf_farm_jobs_write(&jobs, jobs_out, stdout, err, sizeof(err))) {
		mmf_warnx_("farm jobs: %s", err);
		return MMF_EXIT_ERROR;
	}
	return fflush(stdout) ? MMF_EXIT_ERROR : MMF_EXIT_CLEAN;
}

static int farm_device(int argc, char **argv)
{
	struct mmf_farm_job_opts o = {
		.guest = {
			.arch = &mmf_vm_arches[0], .accel = MMF_VM_TCG, .mem_mb = 1024, .cpus = 2,
		},
	};
	const char *out = NULL;
	const struct mmf_opt opts[] = {
		OPT_ARCH(o),
		OPT_ACCEL(o),
		CMD_OPT_MEM(&o.guest.mem_mb),
		CMD_OPT_CPUS(&o.guest.cpus),
		MMF_OPT("out", "FILE", MMF_OPT_STR, &out, "the device dictionary to write"),
		MMF_OPT_END
	};
	const struct mmf_opt *const tables[] = { opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "farm device", .synopsis = DEVICE_SYN, .tables = tables,
		.epilog = "Give the jobs' --arch, --accel, --mem and --cpus: the device's QEMU\n"
			  "options are those lava-server renders for the jobs' context.\n"
			  "  lava-run --job-id 1 --output-dir D --device FILE shard-1.yaml\n",
	};
	struct strbuf yaml;
	int r;

	mmf_opts_parse(&spec, argc, argv);
	if (!out) {
		mmf_warnx_("farm device: --out is needed");
		return MMF_EXIT_USAGE;
	}
	mmf_sb_init(&yaml);
	mmf_farm_device(&o, &yaml);
	r = mmf_write_file_atomic(out, yaml.buf, yaml.len);
	if (r)
		mmf_warnx_("farm device: cannot write %s: %s", out, strerror(errno));
	mmf_sb_free(&yaml);
	return r ? MMF_EXIT_ERROR : MMF_EXIT_CLEAN;
}

static int farm_collect(int argc, char **argv)
{
	struct mmf_farm_collect_opts o = { .hang_ms = 5 * 60 * 1000, .info = stdout };
	const struct mmf_opt opts[] = {
		MMF_OPT("store", "DIR", MMF_OPT_STR, &o.store,
			"the store: crashes/, nights/, farm/logs/ (a nightly store)"),
		CMD_OPT_VMLINUX(&o.vmlinux),
		MMF_OPT("hang", "T", MMF_OPT_MS, &o.hang_ms,
			"a console silent this long before its job ended: a hang", .lo = 1000),
		MMF_OPT_END
	};
	const struct mmf_opt *const tables[] = { opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "farm collect", .synopsis = COLLECT_SYN, .tables = tables,
		.min_args = 1, .max_args = -1,
		.epilog = "A job log: 'lavacli jobs logs --raw ID', or lava-run's output.yaml.\n"
			  "exit status: 0 clean, 3 a new title, 1 error (a bad log or store:\n"
			  "nothing saved; or a finding lost in damaged frames), 2 usage\n",
	};
	int op = mmf_opts_parse(&spec, argc, argv), r;
	char err[512];

	if (!o.store) {
		mmf_warnx_("farm collect: --store is needed");
		return MMF_EXIT_USAGE;
	}
	o.logs = (const char *const *)argv + op;
	o.nr_logs = argc - op;
	r = mmf_farm_collect(&o, err, sizeof(err));
	fflush(stdout);
	if (r < 0) {
		mmf_warnx_("farm collect: %s", err);
		return MMF_EXIT_ERROR;
	}
	return r;
}

int cmd_farm(int argc, char **argv)
{
	static const struct mmf_subcmd cmds[] = {
		{ "jobs", farm_jobs },
		{ "device", farm_device },
		{ "collect", farm_collect },
	};
	const struct mmf_cmd_spec spec = {
		.name = "farm", .synopsis = "SUBCOMMAND [options]", .epilog = epilog,
		.max_args = 0,
	};

	return mmf_subcmd_run(&spec, cmds, ARRAY_SIZE(cmds), argc, argv);
}
