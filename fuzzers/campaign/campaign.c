// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "campaign/campaign.h"
#include "campaign/monitor.h"
#include "store/store.h"
#include "symbolize/symbolize.h"
#include "util/util.h"

/* Programs kept from a guest's execution log to go with a finding. */
#define LAST_PROGS	10

struct guest {
	int id, boot;
	struct mmf_vm *vm;
	struct mmf_monitor *mon;
	struct strbuf exec;	/* this boot's execution log */
	bool running;		/* its first program was logged */
	int console_fd;		/* this boot's console file */
	char *dir;
};

/* The last LAST_PROGS programs of an execution log. */
static const char *last_progs(const struct strbuf *log)
{
	size_t i, mark = strlen(MMF_VM_EXEC_MARK);
	int n = 0;

	if (!log->len)
		return "";
	for (i = log->len; i-- > 0; ) {
		if ((i == 0 || log->buf[i - 1] == '\n') &&
		    !strncmp(log->buf + i, MMF_VM_EXEC_MARK, mark) && ++n == LAST_PROGS)
			break;
	}
	return log->buf + (i == (size_t)-1 ? 0 : i);
}

static int guest_start(const struct mmf_campaign_opts *o, struct guest *g, int64_t left_ms,
		       char *err, size_t n)
{
	int slow = mmf_vm_slowdown(o->accel);
	struct mmf_monitor_opts mo = {
		.settle_ms = 2000ull * slow,
		.hang_ms = o->hang_ms ? (uint64_t)o->hang_ms : 2ull * MMF_VM_PROG_MS * slow,
		.boot_ms = (uint64_t)MMF_VM_BOOT_MS * slow * 2,
		.ready = "mmfuzz: fuzzing natively",
	};
	const char *args[32];
	char dur[32], *work, *exec_log, *console;
	struct mmf_vm_config c = {
		.arch = o->arch, .accel = o->accel, .kernel = o->kernel, .initrd = o->initrd,
		.mem_mb = o->mem_mb, .cpus = o->cpus, .numa_nodes = 2, .disks = mmf_vm_default_disks,
		.nr_disks = mmf_vm_nr_default_disks, .zram_mb = 128, .guest_args = args,
	};
	int na = 0, r;

	/* The guest fuzzes past the budget: the host ends it. */
	snprintf(dur, sizeof(dur), "%llds", (long long)(left_ms / 1000 + 60));
	args[na++] = "--duration";
	args[na++] = dur;
	for (int i = 0; o->guest_args && o->guest_args[i] && na < 28; i++)
		args[na++] = o->guest_args[i];
	g->boot++;
	if (o->nr_lkdtm) {
		args[na++] = "--lkdtm";
		args[na++] = o->lkdtm[(g->boot - 1) % o->nr_lkdtm];
	}
	args[na] = NULL;
	work = xasprintf("%s/boot-%d", g->dir, g->boot);
	if (mkdir_p(work, 0755)) {
		snprintf(err, n, "cannot create %s: %s", work, strerror(errno));
		free(work);
		return -1;
	}
	exec_log = xasprintf("%s/exec.log", work);
	console = xasprintf("%s/console.log", work);
	c.workdir = work;
	c.exec_log = exec_log;
	g->console_fd = open(console, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	r = g->console_fd < 0 ? -1 : mmf_vm_start(&c, &g->vm, err, n);
	if (g->console_fd < 0)
		snprintf(err, n, "cannot create %s: %s", console, strerror(errno));
	if (!r && o->info && g->boot == 1) {
		char *line = mmf_vm_argv_str(mmf_vm_args(g->vm));

		fprintf(o->info, "mmfuzz: vm %d: %s\n", g->id, line);
		fflush(o->info);
		free(line);
	}
	free(work);
	free(exec_log);
	free(console);
	g->mon = mmf_monitor_new(&mo, now_ns() / 1000000);
	sb_init(&g->exec);
	g->running = false;
	return r;
}

static void guest_stop(struct guest *g, struct mmf_campaign_stats *st)
{
	if (g->vm)
		mmf_vm_stop(g->vm);
	g->vm = NULL;
	for (const char *p = g->exec.buf; p && (p = strstr(p, MMF_VM_EXEC_MARK)); p++)
		st->programs++;
	mmf_monitor_free(g->mon);
	g->mon = NULL;
	sb_free(&g->exec);
	if (g->console_fd >= 0)
		close(g->console_fd);
	g->console_fd = -1;
}

static void save(const struct mmf_campaign_opts *o, struct guest *g, const struct mmf_finding *f,
		 struct mmf_campaign_stats *st)
{
	bool boot = f->kind == MMF_FOUND_BOOT_CRASH;
	char *dir = xasprintf("%s/%s", o->out, boot ? "boot-crashes" : "crashes");
	struct mmf_sym_opts so = { .vmlinux = o->vmlinux };
	struct mmf_store_added added;
	char *sym = NULL, *notes = NULL;
	size_t len;
	struct mmf_crash c = {
		.title = f->title, .report = f->report,
		.log = mmf_monitor_log(g->mon, &len), .progs = last_progs(&g->exec),
		.kernel = o->kernel, .arch = o->arch->name,
	};

	if (o->vmlinux && f->report[0] && mmf_symbolize(f->report, &so, &sym, &notes) > 0)
		c.report_sym = sym;
	if (mmf_store_add(dir, &c, &added) < 0)
		warnx_("campaign: cannot save '%s': %s", f->title, mmf_store_err());
	else if (o->info)
		fprintf(o->info, "mmfuzz: vm %d: %s%s (%s/%s, %ld so far)\n", g->id,
			boot ? "boot crash: " : "REPORT: ", f->title, dir, added.name, added.count);
	if (o->info)
		fflush(o->info);
	st->boot_crashes += boot;
	st->reports += f->kind == MMF_FOUND_REPORT;
	st->hangs += f->kind == MMF_FOUND_HANG;
	st->lost += f->kind == MMF_FOUND_LOST;
	free(sym);
	free(notes);
	free(dir);
}

/* Move what a guest printed into its monitor and files; false once it is gone. */
static bool pump(struct guest *g, uint64_t now)
{
	char buf[65536];
	ssize_t r;
	bool alive = true;

	while ((r = mmf_vm_read_console(g->vm, buf, sizeof(buf))) != 0) {
		if (r < 0) {
			alive = false;
			break;
		}
		mmf_monitor_feed(g->mon, buf, r, now);
		write_all(g->console_fd, buf, r);
	}
	while ((r = mmf_vm_read_exec_log(g->vm, buf, sizeof(buf))) > 0)
		sb_add(&g->exec, buf, r);
	return alive && mmf_vm_alive(g->vm);
}

static void note_first_program(const struct mmf_campaign_opts *o, struct guest *g)
{
	if (g->running || !g->exec.len || !strstr(g->exec.buf, MMF_VM_EXEC_MARK))
		return;
	g->running = true;
	if (o->info)
		fprintf(o->info, "mmfuzz: vm %d: boot %d: first program %.1f s after QEMU started\n",
			g->id, g->boot, (now_ns() - mmf_vm_started_ns(g->vm)) / 1e9);
	if (o->info)
		fflush(o->info);
}

int mmf_campaign_run(const struct mmf_campaign_opts *o, struct mmf_campaign_stats *st,
		     char *err, size_t n)
{
	struct guest *gs = xcalloc(o->vms, sizeof(*gs));
	uint64_t t0 = now_ns() / 1000000, end = t0 + o->duration_ms;
	int started = 0, rc = 0;

	memset(st, 0, sizeof(*st));
	for (int i = 0; i < o->vms; i++) {
		gs[i].id = i;
		gs[i].console_fd = -1;
		gs[i].dir = xasprintf("%s/vm-%d", o->out, i);
		if (guest_start(o, &gs[i], o->duration_ms, err, n))
			goto out;
		started++;
		st->boots++;
	}
	while (!(o->stop && *o->stop)) {
		uint64_t now = now_ns() / 1000000;
		struct pollfd pfd[64];
		int np = 0;

		if (now >= end)
			break;
		for (int i = 0; i < o->vms && np < 64; i++) {
			struct mmf_finding f;
			bool dead = !pump(&gs[i], now);

			note_first_program(o, &gs[i]);
			if (!mmf_monitor_poll(gs[i].mon, now, dead, &f)) {
				pfd[np].fd = mmf_vm_console_fd(gs[i].vm);
				pfd[np++].events = POLLIN;
				continue;
			}
			save(o, &gs[i], &f, st);
			mmf_finding_free(&f);
			guest_stop(&gs[i], st);
			if (guest_start(o, &gs[i], end - now, err, n)) {
				rc = -1;
				goto out;
			}
			st->boots++;
			st->restarts++;
		}
		poll(pfd, np, 200);
	}
out:
	for (int i = 0; i < started; i++)
		guest_stop(&gs[i], st);
	for (int i = 0; i < o->vms; i++)
		free(gs[i].dir);
	free(gs);
	return rc;
}
