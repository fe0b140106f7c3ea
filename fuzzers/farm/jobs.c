// SPDX-License-Identifier: GPL-2.0
/* A shard's LAVA job definition, and the device dictionary to run it here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "farm/farm.h"

/*
 * The test monitor's pattern: the guest's case lines, and a kernel panic
 * (the guest's last words on a fatal report). The lookbehind keeps the
 * prefix out of the case's name; LAVA makes "Kernel panic" kernel_panic.
 */
#define CASE_PATTERN	"(?P<test_case_id>(?<=mmfuzz-case: )[a-z-]+|Kernel panic)" \
			"(?:: | - )(?P<result>pass|fail|not syncing)"
/*
 * A panic's last line ends the monitor as the guest's own end does: the
 * guest then halts (panic=0), and LAVA powers it off.
 */
#define END_PATTERN	MMF_FARM_END "|---\\[ end Kernel panic"

/* A YAML scalar in single quotes: a quote is written twice. */
static void quoted(struct strbuf *sb, const char *s)
{
	mmf_sb_puts(sb, "'");
	for (; *s; s++) {
		if (*s == '\'')
			mmf_sb_puts(sb, "''");
		else
			mmf_sb_add(sb, s, 1);
	}
	mmf_sb_puts(sb, "'");
}

/*
 * QEMU options beyond those of LAVA's qemu device type, as its template
 * takes them from the job's context: extra_options, and for arm64 cpu and
 * machine. Without KVM the template gives x86 no -cpu (no_kvm).
 */
static int extra_options(const struct mmf_farm_job_opts *o, char **v)
{
	const struct mmf_vm_arch *a = o->guest.arch;
	bool x86 = !strcmp(a->name, "x86_64"), kvm = o->guest.accel == MMF_VM_KVM;
	int nr = 0;

	if (x86 && !kvm)
		v[nr++] = mmf_xasprintf("-cpu %s", a->cpu[o->guest.accel]);
	if (x86)
		v[nr++] = mmf_xasprintf("-machine %s", a->machine);
	if (!x86 || !kvm)
		v[nr++] = mmf_xstrdup(kvm ? "-accel kvm" : "-accel tcg,thread=multi");
	/* Sockets: see vm/argv.c; a kernel without ACPI finds one CPU per package. */
	v[nr++] = mmf_xasprintf("-smp %d,sockets=%d", o->guest.cpus, o->guest.cpus);
	/* panic=-1 reboots: without this, the guest would boot and fuzz again. */
	v[nr++] = mmf_xstrdup("-no-reboot");
	if (a->extra[0]) {
		struct strbuf sb;

		mmf_sb_init(&sb);
		for (size_t i = 0; a->extra[i]; i++)
			mmf_sb_printf(&sb, "%s%s", i ? " " : "", a->extra[i]);
		v[nr++] = mmf_sb_detach(&sb);
	}
	return nr;
}

/* A local file as LAVA downloads it; a URL as it is. */
static char *url_of(const char *s)
{
	char *abs;

	if (strstr(s, "://"))
		return mmf_xstrdup(s);
	abs = realpath(s, NULL);
	if (!abs)
		return NULL;
	s = mmf_xasprintf("file://%s", abs);
	free(abs);
	return (char *)s;
}

static void minutes(struct strbuf *sb, const char *indent, const char *key, int64_t ms)
{
	mmf_sb_printf(sb, "%s%s:\n%s  minutes: %lld\n", indent, key, indent,
		      (long long)((ms + 59999) / 60000));
}

int mmf_farm_job(const struct mmf_farm_job_opts *o, struct strbuf *yaml, char *err, size_t n)
{
	const struct mmf_vm_arch *a = o->guest.arch;
	/* The shard's own options first: a guest argument cannot undo them. */
	struct mmf_guest_argv args = { 0 };
	char *kernel = url_of(o->guest.kernel), *initrd = url_of(o->guest.initrd);
	struct mmf_vm_config c = { .guest = o->guest, .zram_mb = o->zram_mb };
	int64_t slow = mmf_vm_slowdown(o->guest.accel);
	int64_t boot_ms = MMF_VM_BOOT_MS * slow, end_ms = (MMF_VM_PROG_MS + MMF_VM_TEARDOWN_MS) * slow;
	int64_t test_ms = o->budget_ms + boot_ms + 2 * end_ms + 5 * 60000;
	char *cmdline = NULL, *extra[16];
	int nr_extra;

	if (!kernel || !initrd) {
		snprintf(err, n, "%s: no such file", !kernel ? o->guest.kernel : o->guest.initrd);
		free(kernel);
		free(initrd);
		return -1;
	}
	mmf_guest_argv_opt(&args, "--seed", "%llu", (unsigned long long)o->seed);
	mmf_guest_argv_opt(&args, "--duration", "%llds", (long long)(o->budget_ms / 1000));
	mmf_guest_argv_list(&args, o->guest.guest_args);
	c.guest.guest_args = args.v;
	/* panic=0: a panic prints its end line, which ends the monitor (the last panic= counts). */
	c.guest.append = "mmfuzz.mode=farm printk.devkmsg=on panic=0";
	cmdline = mmf_guest_argv_check(&args, err, n) ? NULL : mmf_vm_cmdline(&c, err, n);
	if (!cmdline) {
		free(kernel);
		free(initrd);
		return -1;
	}
	nr_extra = extra_options(o, extra);
	mmf_sb_printf(yaml, "# mmfuzz farm: shard %d of %d, seed %llu, %llds for %s\n", o->shard,
		      o->shards, (unsigned long long)o->seed, (long long)(o->budget_ms / 1000), a->name);
	mmf_sb_puts(yaml, "device_type: qemu\njob_name: ");
	{
		char *name = mmf_xasprintf("mmfuzz %s %s shard %d of %d, seed %llu", o->name,
					   a->name, o->shard, o->shards,
					   (unsigned long long)o->seed);

		quoted(yaml, name);
		free(name);
	}
	mmf_sb_puts(yaml, "\ntimeouts:\n");
	minutes(yaml, "  ", "job", test_ms + boot_ms + 10 * 60000);
	minutes(yaml, "  ", "action", boot_ms + 5 * 60000);
	minutes(yaml, "  ", "connection", 2 * 60000);
	mmf_sb_puts(yaml, "priority: medium\nvisibility: public\ncontext:\n");
	mmf_sb_printf(yaml, "  arch: %s\n", a->name);
	if (o->guest.accel != MMF_VM_KVM)
		mmf_sb_puts(yaml, "  no_kvm: true\n");
	mmf_sb_printf(yaml, "  memory: %d\n", o->guest.mem_mb);
	if (strcmp(a->name, "x86_64")) {
		mmf_sb_puts(yaml, "  cpu: ");
		quoted(yaml, a->cpu[o->guest.accel]);
		mmf_sb_puts(yaml, "\n  machine: ");
		quoted(yaml, a->machine);
		mmf_sb_puts(yaml, "\n");
	}
	mmf_sb_puts(yaml, "  extra_options:\n");
	for (int i = 0; i < nr_extra; i++) {
		mmf_sb_puts(yaml, "  - ");
		quoted(yaml, extra[i]);
		mmf_sb_puts(yaml, "\n");
		free(extra[i]);
	}
	mmf_sb_puts(yaml, "actions:\n- deploy:\n    to: tmpfs\n");
	minutes(yaml, "    ", "timeout", 10 * 60000);
	mmf_sb_puts(yaml, "    images:\n      kernel:\n        image_arg: ");
	{
		char *arg = mmf_xasprintf("-kernel {kernel} -append \"%s\"", cmdline);

		quoted(yaml, arg);
		free(arg);
	}
	mmf_sb_puts(yaml, "\n        url: ");
	quoted(yaml, kernel);
	mmf_sb_puts(yaml, "\n      initrd:\n        image_arg: '-initrd {initrd}'\n        url: ");
	quoted(yaml, initrd);
	mmf_sb_puts(yaml, "\n- boot:\n    method: qemu\n    media: tmpfs\n");
	/*
	 * The guest's console keeps the boot action's timeout for every wait
	 * of the test monitor: a shard without findings waits its budget.
	 */
	minutes(yaml, "    ", "timeout", test_ms);
	mmf_sb_puts(yaml, "- test:\n");
	minutes(yaml, "    ", "timeout", test_ms);
	mmf_sb_puts(yaml, "    monitors:\n    - name: mmfuzz\n      start: ");
	quoted(yaml, MMF_FARM_START);
	mmf_sb_puts(yaml, "\n      end: ");
	quoted(yaml, END_PATTERN);
	mmf_sb_puts(yaml, "\n      pattern: ");
	quoted(yaml, CASE_PATTERN);
	mmf_sb_puts(yaml, "\n      fixupdict:\n        not syncing: fail\n");
	free(cmdline);
	free(kernel);
	free(initrd);
	return 0;
}
int mmf_farm_jobs_write(const struct mmf_farm_job_opts *o, const char *out, FILE *info,
			char *err, size_t n)
{
	struct mmf_farm_job_opts k = *o;
	int r = 0;

	for (int pass = 0; pass < 2 && !r; pass++) {
		for (k.shard = 1; k.shard <= o->shards && !r; k.shard++) {
			char *path = mmf_xasprintf("%s/shard-%d.yaml", out, k.shard);
			struct strbuf yaml;

			mmf_sb_init(&yaml);
			k.seed = o->seed + k.shard - 1;
			r = mmf_farm_job(&k, &yaml, err, n);
			if (!r && !pass && !access(path, F_OK)) {
				snprintf(err, n, "%s exists: give another --out", path);
				r = -1;
			}
			if (!r && pass && mmf_write_file_new(path, yaml.buf, yaml.len)) {
				snprintf(err, n, "cannot write %s: %s", path, strerror(errno));
				r = -1;
			}
			if (!r && pass)
				fprintf(info, "farm: %s: shard %d of %d, seed %llu\n", path,
					k.shard, o->shards, (unsigned long long)k.seed);
			mmf_sb_free(&yaml);
			free(path);
		}
	}
	return r;
}

void mmf_farm_device(const struct mmf_farm_job_opts *o, struct strbuf *yaml)
{
	const struct mmf_vm_arch *a = o->guest.arch;
	bool x86 = !strcmp(a->name, "x86_64");
	char *extra[16];
	int nr_extra = extra_options(o, extra);

	mmf_sb_printf(yaml, "# mmfuzz farm: a qemu device for lava-run, as lava-server renders its\n"
		      "# qemu device type for the jobs of 'mmfuzz farm jobs --arch %s'.\n",
		      a->name);
	mmf_sb_printf(yaml, "available_architectures:\n- %s\n- %s\n", a->name, x86 ? "amd64" :
		      "aarch64");
	mmf_sb_puts(yaml, "constants:\n  shutdown-message: 'The system is going down for reboot NOW'\n"
		    "  kernel-start-message: 'Linux version [0-9]'\n"
		    "  default-shell-prompt: 'lava-test: # '\n"
		    "  spawn_maxread: '4092'\n"
		    "  failure_retry: 1\n  boot_retry: 1\n"
		    "  posix:\n    lava_test_sh_cmd: /bin/sh\n"
		    "    lava_test_results_dir: /lava-%s\n"
		    "    lava_test_shell_file: ~/.bashrc\n");
	mmf_sb_puts(yaml, "commands:\n  connections: {}\n");
	mmf_sb_puts(yaml, "actions:\n  deploy:\n    connections:\n      serial:\n"
		    "    methods:\n      image:\n        parameters:\n  boot:\n"
		    "    connections:\n      serial:\n    methods:\n      qemu:\n"
		    "        parameters:\n");
	mmf_sb_printf(yaml, "          command: %s\n          options:\n", a->qemu);
	if (!x86) {
		mmf_sb_printf(yaml, "          - -cpu %s\n", a->cpu[o->guest.accel]);
		mmf_sb_printf(yaml, "          - -machine %s\n", a->machine);
	} else if (o->guest.accel == MMF_VM_KVM) {
		mmf_sb_puts(yaml, "          - -cpu host\n          - -enable-kvm\n");
	}
	mmf_sb_printf(yaml, "          - -nographic\n"
		      "          - -net nic,model=virtio,macaddr=52:54:00:12:34:58 -net user\n"
		      "          - -m %d\n          - -monitor none\n          extra:\n",
		      o->guest.mem_mb);
	for (int i = 0; i < nr_extra; i++) {
		mmf_sb_puts(yaml, "          - ");
		quoted(yaml, extra[i]);
		mmf_sb_puts(yaml, "\n");
		free(extra[i]);
	}
	mmf_sb_puts(yaml, "timeouts:\n  actions:\n    apply-overlay-image:\n      minutes: 2\n"
		    "  connections:\n    uboot-commands:\n      minutes: 2\n");
}
