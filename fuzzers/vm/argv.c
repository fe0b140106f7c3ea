// SPDX-License-Identifier: GPL-2.0
/* QEMU's argv and the guest kernel's command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "vm/vm.h"

/*
 * Watchdogs that would take TCG's slowness for a kernel bug: their
 * thresholds grow with the slowdown, up to what the kernel accepts.
 */
static const struct {
	const char *param;
	int base_s, max_s;
} watchdogs[] = {
	{ "rcupdate.rcu_cpu_stall_timeout", 21, 300 },
	{ "watchdog_thresh", 10, 60 },
	{ "workqueue.watchdog_thresh", 30, 300 },
	{ "sysctl.kernel.hung_task_timeout_secs", 120, 1200 },
};

/*
 * Swap of different kinds: two raw virtio-blk devices at one priority (the
 * kernel round-robins equal priorities, so a program's entries spread over
 * both) and a file system holding a swap file and the fuzzer's swap dir.
 * zram, in guest memory, is the third kind (mmf_vm_config.zram_mb).
 */
const struct mmf_vm_disk mmf_vm_default_disks[] = {
	{ "swap0", 256 },
	{ "swap1", 256 },
	{ "fs0", 128 },
};
const size_t mmf_vm_nr_default_disks = ARRAY_SIZE(mmf_vm_default_disks);

void mmf_vm_fuzzing_machine(struct mmf_vm_config *c)
{
	c->numa_nodes = 2;
	c->disks = mmf_vm_default_disks;
	c->nr_disks = mmf_vm_nr_default_disks;
	c->zram_mb = 128;
}

/* Whether init's split of mmfuzz.args (on commas) gives s back as is. */
static bool travels(const char *s)
{
	return *s && !strpbrk(s, ", \t\n\"'\\");
}

char *mmf_vm_cmdline(const struct mmf_vm_config *c, char *err, size_t n)
{
	const struct mmf_vm_guest *g = &c->guest;
	int slow = mmf_vm_slowdown(g->accel);
	struct strbuf sb;

	mmf_sb_init(&sb);
	/* Every oops or warning ends the guest: its report is the last thing on the console. */
	mmf_sb_printf(&sb, "console=%s panic_on_warn=1 oops=panic panic=-1", g->arch->console);
	for (size_t i = 0; i < ARRAY_SIZE(watchdogs); i++)
		mmf_sb_printf(&sb, " %s=%d", watchdogs[i].param,
			  MIN(watchdogs[i].base_s * slow, watchdogs[i].max_s));
	mmf_sb_printf(&sb, " mmfuzz.zram=%d mmfuzz.slowdown=%d mmfuzz.cpus=%d", c->zram_mb, slow,
		      g->cpus);
	if (c->ctl)
		mmf_sb_puts(&sb, " mmfuzz.mode=serve");
	if (c->snapshot)
		mmf_sb_puts(&sb, " mmfuzz.snapshot=1");
	if (g->append && *g->append)
		mmf_sb_printf(&sb, " %s", g->append);
	for (size_t i = 0; g->guest_args && g->guest_args[i]; i++) {
		if (!travels(g->guest_args[i])) {
			snprintf(err, n, "guest fuzzer option '%s' cannot be passed on the "
				 "kernel command line (empty, or a comma, quote or space)",
				 g->guest_args[i]);
			mmf_sb_free(&sb);
			return NULL;
		}
		/* With snapshots they travel on the go line (mmf_vm_go()). */
		if (!c->snapshot && !c->restore)
			mmf_sb_printf(&sb, "%s%s", i ? "," : " mmfuzz.args=", g->guest_args[i]);
	}
	return mmf_sb_detach(&sb);
}

/* A value inside a QEMU option list: a comma is written twice. */
static void qemu_opt(struct strbuf *sb, const char *v)
{
	for (; *v; v++) {
		if (*v == ',')
			mmf_sb_puts(sb, ",");
		mmf_sb_add(sb, v, 1);
	}
}

struct argv {
	char **v;
	size_t n;
};

static void add(struct argv *a, const char *s)
{
	a->v = mmf_xrealloc(a->v, (a->n + 2) * sizeof(*a->v));
	a->v[a->n++] = mmf_xstrdup(s);
	a->v[a->n] = NULL;
}

static void add_own(struct argv *a, char *s)
{
	add(a, s);
	free(s);
}

static void add_sb(struct argv *a, struct strbuf *sb)
{
	add_own(a, mmf_sb_detach(sb));
}

char **mmf_vm_argv(const struct mmf_vm_config *c, char *err, size_t n)
{
	const struct mmf_vm_guest *g = &c->guest;
	const struct mmf_vm_arch *arch = g->arch;
	char *cmdline = mmf_vm_cmdline(c, err, n);
	struct argv a = { 0 };
	struct strbuf sb;

	if (!cmdline)
		return NULL;
	mmf_sb_init(&sb);
	add(&a, arch->qemu);
	add(&a, "-machine");
	add(&a, arch->machine);
	add(&a, "-accel");
	/* Multi-threaded TCG: one host thread per guest CPU. */
	add(&a, g->accel == MMF_VM_KVM ? "kvm" : "tcg,thread=multi");
	add(&a, "-cpu");
	add(&a, arch->cpu[g->accel]);
	add(&a, "-m");
	add_own(&a, mmf_xasprintf("%d", g->mem_mb));
	/*
	 * One socket per CPU: a kernel without ACPI finds the CPUs in
	 * SeaBIOS's MP table, which lists one CPU per package, and QEMU's
	 * plain -smp N makes one package of N cores.
	 */
	add(&a, "-smp");
	add_own(&a, mmf_xasprintf("%d,sockets=%d", g->cpus, g->cpus));
	for (int i = 0; c->numa_nodes > 1 && i < c->numa_nodes; i++) {
		int mb = g->mem_mb / c->numa_nodes + (i ? 0 : g->mem_mb % c->numa_nodes);
		int lo = i * g->cpus / c->numa_nodes, hi = (i + 1) * g->cpus / c->numa_nodes - 1;

		add(&a, "-object");
		add_own(&a, mmf_xasprintf("memory-backend-ram,id=node%d,size=%dM", i, mb));
		add(&a, "-numa");
		/* More nodes than CPUs: the rest hold memory only. */
		if (hi >= lo)
			add_own(&a, mmf_xasprintf("node,nodeid=%d,memdev=node%d,cpus=%d-%d", i, i,
					      lo, hi));
		else
			add_own(&a, mmf_xasprintf("node,nodeid=%d,memdev=node%d", i, i));
	}
	add(&a, "-kernel");
	add(&a, g->kernel);
	add(&a, "-initrd");
	add(&a, g->initrd);
	add(&a, "-append");
	add_own(&a, cmdline);
	add(&a, "-nographic");
	/* panic=-1 reboots at once: -no-reboot turns that into QEMU's exit. */
	add(&a, "-no-reboot");
	add(&a, "-nic");
	add(&a, "none");
	for (size_t i = 0; arch->extra[i]; i++)
		add(&a, arch->extra[i]);
	/*
	 * The execution log: a virtio console port (hvc0 in the guest).
	 * Its writes wait until QEMU has taken the bytes, and QEMU writes
	 * them to the file at once, so a panic cannot lose them.
	 */
	add(&a, "-chardev");
	mmf_sb_puts(&sb, "file,id=execlog,append=on,path=");
	qemu_opt(&sb, c->exec_log);
	add_sb(&a, &sb);
	add(&a, "-device");
	add(&a, "virtio-serial-pci,id=vser0");
	add(&a, "-device");
	add(&a, "virtconsole,bus=vser0.0,chardev=execlog");
	/* QEMU listens; mmf_vm_start() connects before the guest boots. */
	for (int i = 0; i < 4; i++) {
		static const char *const ids[] = { "ctl", "findings", "cover", "go" };
		static const char *const names[] = { MMF_VM_CTL_PORT, MMF_VM_FINDINGS_PORT,
						     MMF_VM_COVER_PORT, MMF_VM_GO_PORT };
		const bool wanted[] = { c->ctl, c->findings, c->cover, c->snapshot || c->restore };

		if (!wanted[i])
			continue;
		add(&a, "-chardev");
		mmf_sb_printf(&sb, "socket,id=%s,server=on,wait=off,path=", ids[i]);
		qemu_opt(&sb, c->workdir);
		mmf_sb_printf(&sb, "/%s.sock", ids[i]);
		add_sb(&a, &sb);
		add(&a, "-device");
		add_own(&a, mmf_xasprintf("virtserialport,bus=vser0.0,chardev=%s,name=%s", ids[i],
				      names[i]));
	}
	for (size_t i = 0; i < c->nr_disks; i++) {
		add(&a, "-drive");
		mmf_sb_puts(&sb, "file=");
		qemu_opt(&sb, c->workdir);
		mmf_sb_puts(&sb, "/");
		qemu_opt(&sb, c->disks[i].serial);
		/* Scratch data: no flushes to the host disk, discards punch holes. */
		mmf_sb_printf(&sb, ".img,if=none,id=d%zu,format=raw,cache=unsafe,discard=unmap", i);
		add_sb(&a, &sb);
		add(&a, "-device");
		mmf_sb_printf(&sb, "virtio-blk-pci,drive=d%zu,serial=", i);
		qemu_opt(&sb, c->disks[i].serial);
		add_sb(&a, &sb);
	}
	if (g->mmfuzz) {
		add(&a, "-drive");
		mmf_sb_puts(&sb, "file=");
		qemu_opt(&sb, c->workdir);
		mmf_sb_puts(&sb, "/" MMF_VM_BIN_SERIAL ".img,if=none,id=bin,format=raw,readonly=on");
		add_sb(&a, &sb);
		add(&a, "-device");
		add(&a, "virtio-blk-pci,drive=bin,serial=" MMF_VM_BIN_SERIAL);
	}
	if (c->snapshot || c->restore) {
		add(&a, "-qmp");
		mmf_sb_puts(&sb, "unix:");
		qemu_opt(&sb, c->workdir);
		mmf_sb_puts(&sb, "/qmp.sock,server=on,wait=off");
		add_sb(&a, &sb);
	}
	if (c->restore) {
		/* A shell runs it: the directory is quoted (and holds no quote, vm.c). */
		add(&a, "-incoming");
		add_own(&a, mmf_xasprintf("exec:cat '%s/ram'", c->restore));
	}
	return a.v;
}

void mmf_vm_argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

char *mmf_vm_argv_str(char *const *argv)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789_./=,:+-@%";
	struct strbuf sb;

	mmf_sb_init(&sb);
	for (size_t i = 0; argv[i]; i++) {
		const char *s = argv[i];

		if (i)
			mmf_sb_puts(&sb, " ");
		if (*s && strspn(s, safe) == strlen(s)) {
			mmf_sb_puts(&sb, s);
			continue;
		}
		mmf_sb_puts(&sb, "'");
		for (; *s; s++) {
			if (*s == '\'')
				mmf_sb_puts(&sb, "'\\''");
			else
				mmf_sb_add(&sb, s, 1);
		}
		mmf_sb_puts(&sb, "'");
	}
	return mmf_sb_detach(&sb);
}
