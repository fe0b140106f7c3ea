// SPDX-License-Identifier: GPL-2.0
/*
 * One guest run: boot, follow the console and the execution log, stop at
 * power-off or at a deadline. Every deadline is the KVM one times the
 * accelerator's slowdown.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/util.h"
#include "vm/vm.h"

#define POWEROFF_LINE	MMF_VM_INIT_TAG " powering off"

/* Lines out of a byte stream; only their start matters here. */
struct scan {
	char line[256];
	size_t len;
};

struct follow {
	struct mmf_vm_run_result *r;
	const struct mmf_vm_run_opts *o;
	uint64_t t0;
	struct scan console, exec;
};

static void scan_feed(struct scan *s, const char *p, size_t n,
		      void (*fn)(struct follow *f, const char *line), struct follow *f)
{
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\n') {
			s->line[s->len] = '\0';
			fn(f, s->line);
			s->len = 0;
		} else if (p[i] != '\r' && s->len < sizeof(s->line) - 1) {
			s->line[s->len++] = p[i];
		}
	}
}

static int64_t since_ms(const struct follow *f)
{
	return (int64_t)((mmf_now_ns() - f->t0) / 1000000);
}

/* Kernel messages can land in the middle of init's lines: search, not compare. */
static void console_line(struct follow *f, const char *line)
{
	if (f->r->init_ms < 0 && strstr(line, MMF_VM_INIT_TAG))
		f->r->init_ms = since_ms(f);
	if (strstr(line, POWEROFF_LINE))
		f->r->powered_off = true;
}

static void exec_line(struct follow *f, const char *line)
{
	if (strncmp(line, MMF_VM_EXEC_MARK, strlen(MMF_VM_EXEC_MARK)))
		return;
	if (!f->r->programs++) {
		f->r->boot_ms = since_ms(f);
		if (f->o->info) {
			fprintf(f->o->info, "mmfuzz: boot to first program: %.1f s",
				f->r->boot_ms / 1000.0);
			if (f->r->init_ms >= 0)
				fprintf(f->o->info, " (init started at %.1f s)",
					f->r->init_ms / 1000.0);
			fprintf(f->o->info, "\n");
			fflush(f->o->info);
		}
	}
}

/* Take what is there now; false once QEMU closed the console. */
static bool drain(struct mmf_vm *vm, struct follow *f, int logfd)
{
	char buf[65536];
	bool live = true;
	ssize_t r;

	while ((r = mmf_vm_read_console(vm, buf, sizeof(buf))) != 0) {
		if (r < 0) {
			live = false;
			break;
		}
		if (logfd >= 0)
			mmf_write_all(logfd, buf, r);
		if (f->o->echo) {
			fwrite(buf, 1, r, f->o->echo);
			fflush(f->o->echo);
		}
		scan_feed(&f->console, buf, r, console_line, f);
	}
	while ((r = mmf_vm_read_exec_log(vm, buf, sizeof(buf))) > 0)
		scan_feed(&f->exec, buf, r, exec_line, f);
	return live;
}

static void info(const struct mmf_vm_run_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void info(const struct mmf_vm_run_opts *o, const char *fmt, ...)
{
	va_list ap;

	if (!o->info)
		return;
	va_start(ap, fmt);
	fputs("mmfuzz: ", o->info);
	vfprintf(o->info, fmt, ap);
	fputc('\n', o->info);
	fflush(o->info);
	va_end(ap);
}

int mmf_vm_run(const struct mmf_vm_config *c, const struct mmf_vm_run_opts *o,
	       struct mmf_vm_run_result *r, char *err, size_t n)
{
	int64_t slow = mmf_vm_slowdown(c->accel);
	int64_t boot_ms = MMF_VM_BOOT_MS * slow;
	int64_t end_ms = boot_ms + o->duration_ms + (MMF_VM_PROG_MS + MMF_VM_TEARDOWN_MS) * slow;
	struct follow f = { .r = r, .o = o };
	struct mmf_vm *vm;
	bool live = true;
	int logfd = -1;
	char *line;

	memset(r, 0, sizeof(*r));
	r->init_ms = r->boot_ms = -1;
	if (o->console_log) {
		logfd = open(o->console_log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (logfd < 0) {
			snprintf(err, n, "console log %s: %s", o->console_log, strerror(errno));
			return -1;
		}
	}
	if (mmf_vm_start(c, &vm, err, n)) {
		if (logfd >= 0)
			close(logfd);
		return -1;
	}
	f.t0 = mmf_vm_started_ns(vm);
	line = mmf_vm_argv_str(mmf_vm_args(vm));
	info(o, "%s", line);
	free(line);
	info(o, "%s, slowdown %d: boot deadline %lld s, run deadline %lld s",
	     mmf_vm_accel_name(c->accel), (int)slow, (long long)boot_ms / 1000,
	     (long long)end_ms / 1000);
	for (;;) {
		struct pollfd pf[2] = {
			{ .fd = mmf_vm_console_fd(vm), .events = POLLIN },
			{ .fd = mmf_vm_findings_fd(vm), .events = POLLIN },
		};
		int64_t t;

		poll(pf, pf[1].fd >= 0 ? 2 : 1, 200);
		live = drain(vm, &f, logfd);
		if (o->findings && pf[1].fd >= 0 && (pf[1].revents & POLLIN) &&
		    o->findings(o->ctx, pf[1].fd)) {
			r->failed = true;
			break;
		}
		t = since_ms(&f);
		if (!live || !mmf_vm_alive(vm)) {
			r->exited = true;
			break;
		}
		if (o->stop && *o->stop) {
			r->stopped = true;
			info(o, "stopping the guest");
			break;
		}
		if (r->boot_ms < 0 && t > boot_ms) {
			r->timed_out = true;
			info(o, "no program ran within %lld s of the start: stopping the guest",
			     (long long)boot_ms / 1000);
			break;
		}
		if (t > end_ms) {
			r->timed_out = true;
			info(o, "the guest is still running %lld s after the start: stopping it",
			     (long long)end_ms / 1000);
			break;
		}
	}
	/* An exiting QEMU has closed its console: let it finish before reaping. */
	for (int i = 0; r->exited && i < 100 && mmf_vm_alive(vm); i++)
		nanosleep(&(struct timespec){ .tv_nsec = 20 * 1000 * 1000 }, NULL);
	drain(vm, &f, logfd);
	if (o->findings && mmf_vm_findings_fd(vm) >= 0 && o->findings(o->ctx, mmf_vm_findings_fd(vm)))
		r->failed = true;
	r->powered_off = r->powered_off && r->exited;
	r->status = mmf_vm_stop(vm);
	r->total_ms = since_ms(&f);
	if (logfd >= 0)
		close(logfd);
	return 0;
}
