// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "campaign/guestrepro.h"
#include "report/report.h"
#include "repro/repro.h"
#include "util/util.h"

#define BOOT_TRIES	3

struct mmf_guest_repro {
	struct mmf_guest_repro_opts o;
	struct mmf_vm *vm;
	int console_fd;		/* this boot's console.log */
	int boots;
	struct mmf_vm_snap snap;	/* workdir/snapshot; off after a restart */
	struct strbuf console;	/* console since the current request (or boot) */
	struct strbuf ctl;	/* control channel bytes not yet a whole line */
	/* The guest's options: o.guest_args, then its programs' timeout. */
	struct mmf_guest_argv args;
};

static void info(struct mmf_guest_repro *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void vinfo(struct mmf_guest_repro *g, const char *fmt, va_list ap)
{
	if (!g->o.info)
		return;
	fputs("mmfuzz: repro guest: ", g->o.info);
	vfprintf(g->o.info, fmt, ap);
	fputc('\n', g->o.info);
	fflush(g->o.info);
}

static void info(struct mmf_guest_repro *g, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vinfo(g, fmt, ap);
	va_end(ap);
}

void mmf_guest_repro_log(void *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vinfo(ctx, fmt, ap);
	va_end(ap);
}

struct mmf_guest_repro *mmf_guest_repro_new(const struct mmf_guest_repro_opts *o)
{
	struct mmf_guest_repro *g = mmf_xcalloc(1, sizeof(*g));

	g->o = *o;
	mmf_guest_argv_list(&g->args, o->guest.guest_args);
	/* The guest's timeout is the requests': its runner ends a program in time. */
	mmf_guest_argv_opt(&g->args, "--timeout", "%lldms", (long long)o->timeout_ms);
	g->o.guest.guest_args = g->args.v;
	g->console_fd = -1;
	mmf_vm_snap_init(&g->snap, mmf_xasprintf("%s/snapshot", o->workdir));
	mmf_sb_init(&g->console);
	mmf_sb_init(&g->ctl);
	return g;
}

int mmf_guest_repro_boots(const struct mmf_guest_repro *g)
{
	return g->boots;
}

static void stop(struct mmf_guest_repro *g)
{
	if (g->vm)
		mmf_vm_stop(g->vm);
	g->vm = NULL;
	if (g->console_fd >= 0)
		close(g->console_fd);
	g->console_fd = -1;
	g->ctl.len = 0;
}

void mmf_guest_repro_restart(struct mmf_guest_repro *g)
{
	stop(g);
	g->snap.off = true;
}

void mmf_guest_repro_free(struct mmf_guest_repro *g)
{
	stop(g);
	mmf_vm_snap_free(&g->snap);
	mmf_sb_free(&g->console);
	mmf_sb_free(&g->ctl);
	free(g);
}

/* Take what the console has now; false once QEMU has closed it. */
static bool drain_console(struct mmf_guest_repro *g)
{
	char buf[65536];
	ssize_t r;

	while ((r = mmf_vm_read_console(g->vm, buf, sizeof(buf))) > 0) {
		mmf_sb_add(&g->console, buf, r);
		if (g->console_fd >= 0)
			mmf_write_all(g->console_fd, buf, r);
	}
	return r == 0;
}

/*
 * The next whole line of the control channel into line (NUL-terminated),
 * 1; 0 when there is none yet; -1 when the guest closed it.
 */
static int ctl_line(struct mmf_guest_repro *g, char *line, size_t n)
{
	char buf[4096], *nl;
	ssize_t r;

	while ((r = recv(mmf_vm_ctl_fd(g->vm), buf, sizeof(buf), MSG_DONTWAIT)) > 0)
		mmf_sb_add(&g->ctl, buf, r);
	nl = g->ctl.len ? memchr(g->ctl.buf, '\n', g->ctl.len) : NULL;
	if (!nl)
		return r == 0 ? -1 : 0;
	*nl = '\0';
	snprintf(line, n, "%s", g->ctl.buf);
	g->ctl.len -= nl + 1 - g->ctl.buf;
	memmove(g->ctl.buf, nl + 1, g->ctl.len);
	return 1;
}

/* Wait for poll events on the console and the control channel, up to ms. */
static void wait_io(struct mmf_guest_repro *g, int ms)
{
	struct pollfd pf[2] = {
		{ .fd = mmf_vm_console_fd(g->vm), .events = POLLIN },
		{ .fd = mmf_vm_ctl_fd(g->vm), .events = POLLIN },
	};

	poll(pf, 2, ms);
}

static int send_request(struct mmf_guest_repro *g, const struct strbuf *req);
static int answered(struct mmf_guest_repro *g, int64_t timeout_ms, struct strbuf *answer);

/* The focus, once the guest is ready: it keeps it for every cover request. */
static int send_focus(struct mmf_guest_repro *g)
{
	struct strbuf req, answer;
	int r;

	if (!g->o.focus)
		return 0;
	mmf_sb_init(&req);
	mmf_sb_init(&answer);
	mmf_sb_printf(&req, MMF_SERVE_FOCUS "\n%s\n" MMF_SERVE_END "\n", g->o.focus);
	r = send_request(g, &req) ? -1 : answered(g, 10000, &answer);
	if (r)
		info(g, "boot %d: the guest did not take the focus", g->boots);
	mmf_sb_free(&req);
	mmf_sb_free(&answer);
	return r;
}

/*
 * The first boot at its snapshot point: save the guest there while its swap
 * is untouched, then let it go on to serve.
 */
static void snapshot_point(struct mmf_guest_repro *g)
{
	uint64_t t0 = mmf_now_ns();
	char err[512];

	if (!mmf_vm_snap_point(&g->snap, g->vm, g->console.len ? g->console.buf : NULL, "", NULL, err,
			       sizeof(err)))
		return;
	if (err[0])
		info(g, "boot %d: %s", g->boots, err);
	if (g->snap.saved)
		info(g, "boot %d: saved at its snapshot point in %.1f s", g->boots,
		     (mmf_now_ns() - t0) / 1e9);
}

static int boot_once(struct mmf_guest_repro *g)
{
	int64_t deadline = MMF_VM_BOOT_MS * 2 * mmf_vm_slowdown(g->o.guest.accel);
	char *work, *exec_log, *path, err[512], line[512];
	struct mmf_vm_config c = { .guest = g->o.guest, .ctl = true };
	uint64_t t0 = mmf_now_ns();
	char why[256];
	int r = -1, fd, started;

	mmf_vm_fuzzing_machine(&c);
	g->boots++;
	work = mmf_xasprintf("%s/boot-%d", g->o.workdir, g->boots);
	exec_log = mmf_xasprintf("%s/exec.log", work);
	path = mmf_xasprintf("%s/console.log", work);
	c.workdir = work;
	c.exec_log = exec_log;
	g->console.len = 0;
	fd = -1;
	if (!mmf_mkdir_p(work, 0755)) {
		fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		g->console_fd = fd;
	}
	if (fd < 0) {
		info(g, "%s: %s", work, strerror(errno));
		goto out;
	}
	started = mmf_vm_snap_start(&g->snap, &c, "", NULL, g->console_fd, &g->vm, why, sizeof(why),
				    err, sizeof(err));
	if (g->snap.fetched)
		info(g, "the snapshot cache has this guest");
	if (why[0])
		info(g, "boot %d: cannot restore the snapshot (%s): booting", g->boots, why);
	if (started < 0) {
		info(g, "%s", err);
		goto out;
	}
	while ((int64_t)((mmf_now_ns() - t0) / 1000000) < deadline) {
		int k;

		wait_io(g, 200);
		if (!drain_console(g))
			break;
		snapshot_point(g);
		while ((k = ctl_line(g, line, sizeof(line))) > 0)
			if (!strcmp(line, MMF_SERVE_READY))
				break;
		if (k > 0) {
			info(g, "boot %d ready in %.1f s%s", g->boots, (mmf_now_ns() - t0) / 1e9,
			     started == 1 ? " (restored from its snapshot)" : "");
			g->console.len = 0;
			r = send_focus(g);
			goto out;
		}
		if (k < 0)
			break;
	}
	drain_console(g);
	info(g, "boot %d failed (%s); console in %s", g->boots,
	     mmf_vm_alive(g->vm) ? "not ready in time" : "QEMU exited", path);
out:
	if (r)
		stop(g);
	free(work);
	free(exec_log);
	free(path);
	return r;
}

static int ensure_guest(struct mmf_guest_repro *g)
{
	for (int i = 0; !g->vm && i < BOOT_TRIES; i++)
		boot_once(g);
	return g->vm ? 0 : -1;
}

int mmf_guest_repro_start(struct mmf_guest_repro *g)
{
	return ensure_guest(g);
}

static int send_request(struct mmf_guest_repro *g, const struct strbuf *req)
{
	return mmf_write_all(mmf_vm_ctl_fd(g->vm), req->buf, req->len);
}

enum outcome { DONE, FAILED, DIED, HUNG };

/*
 * Follow one request until the guest answers, dies or runs out of time
 * (timeout_ms under KVM, scaled); the answer's lines before its end go to
 * answer.
 */
static enum outcome follow(struct mmf_guest_repro *g, int64_t timeout_ms, struct strbuf *answer)
{
	int64_t deadline = (timeout_ms + MMF_VM_PROG_MS) * mmf_vm_slowdown(g->o.guest.accel);
	uint64_t t0 = mmf_now_ns();
	/* A report's line can be long; one guest at a time reads here. */
	static char line[1 << 16];

	while ((int64_t)((mmf_now_ns() - t0) / 1000000) < deadline) {
		int k;

		wait_io(g, 200);
		if (!drain_console(g) || !mmf_vm_alive(g->vm))
			return DIED;
		while ((k = ctl_line(g, line, sizeof(line))) > 0) {
			if (!strncmp(line, MMF_SERVE_DONE, strlen(MMF_SERVE_DONE)))
				return atoi(line + strlen(MMF_SERVE_DONE)) ? FAILED : DONE;
			mmf_sb_printf(answer, "%s\n", line);
		}
		if (k < 0)
			return DIED;
	}
	return HUNG;
}

/* 0 when the guest answered "done 0" within the time. */
static int answered(struct mmf_guest_repro *g, int64_t timeout_ms, struct strbuf *answer)
{
	return follow(g, timeout_ms, answer) == DONE ? 0 : -1;
}

/*
 * Send a request, follow it, and add the console's kernel reports; a
 * guest that is no longer clean is stopped (the next request boots one).
 */
static enum outcome request(struct mmf_guest_repro *g, const struct strbuf *req,
			    int64_t timeout_ms, struct strbuf *answer, struct strbuf *console,
			    int *nr_reports)
{
	struct mmf_report *reps;
	enum outcome out;
	int nr;

	g->console.len = 0;
	out = send_request(g, req) ? DIED : follow(g, timeout_ms, answer);
	if (out == DIED) {
		/* The end of a panic may still be on its way: let QEMU finish. */
		for (int i = 0; i < 100 && mmf_vm_alive(g->vm); i++)
			wait_io(g, 20);
		drain_console(g);
	}
	nr = mmf_report_parse(g->console.buf ? g->console.buf : "", g->console.len, &reps);
	for (int i = 0; i < nr; i++)
		mmf_sb_printf(answer, MMF_SERVE_TITLE "%s\n", reps[i].title);
	if (nr > 0)
		mmf_reports_free(reps, nr);
	if (console && (nr > 0 || out == DIED))
		mmf_sb_add(console, g->console.buf ? g->console.buf : "", g->console.len);
	/* Only a kernel that never reported goes on to the next run. */
	if (out != DONE || nr > 0)
		stop(g);
	*nr_reports = nr;
	return out;
}

static const char *const outcome_names[] = { "done", "failed", "died", "hung" };

const char *mmf_guest_silent_title(const char *outcome)
{
	return !strcmp(outcome, "hung") ? "no output from test machine" :
					  "lost connection to test machine";
}

int mmf_guest_repro_titles(struct mmf_guest_repro *g, const struct mmf_prog *progs, int n,
			   struct strbuf *titles)
{
	struct strbuf req, answer;
	enum outcome out;
	int nr;

	if (ensure_guest(g))
		return -1;
	mmf_sb_init(&req);
	mmf_sb_init(&answer);
	for (int i = 0; i < n; i++) {
		mmf_sb_puts(&req, MMF_PROG_EXEC_MARK "\n");
		mmf_prog_print(&progs[i], &req);
	}
	mmf_sb_puts(&req, "\n" MMF_SERVE_END "\n");
	out = request(g, &req, g->o.timeout_ms, &answer, NULL, &nr);
	for (char *p = answer.buf; p && *p; p = strchr(p, '\n') + 1) {
		size_t len = strcspn(p, "\n");

		if (!strncmp(p, MMF_SERVE_TITLE, strlen(MMF_SERVE_TITLE)))
			mmf_sb_add(titles, p + strlen(MMF_SERVE_TITLE),
			       len + 1 - strlen(MMF_SERVE_TITLE));
	}
	info(g, "%d program(s): %s, %d kernel report(s)", n, outcome_names[out], nr);
	mmf_sb_free(&req);
	mmf_sb_free(&answer);
	return out == FAILED && !titles->len ? -1 : 0;
}

int mmf_guest_repro_run(void *ctx, const struct mmf_prog *progs, int n, const char *title)
{
	struct strbuf titles;
	int hit = 0;

	mmf_sb_init(&titles);
	if (mmf_guest_repro_titles(ctx, progs, n, &titles)) {
		mmf_sb_free(&titles);
		return -1;
	}
	for (char *p = titles.buf; p && *p; p = strchr(p, '\n') + 1) {
		size_t len = strcspn(p, "\n");

		hit |= len == strlen(title) && !strncmp(p, title, len);
	}
	info(ctx, "%s", hit ? "hit" : "no hit");
	mmf_sb_free(&titles);
	return hit;
}

static void clear_reports(struct mmf_guest_cover *c)
{
	for (int i = 0; i < c->nr_reports; i++) {
		free(c->rep[i].title);
		free(c->rep[i].body);
	}
	c->nr_reports = 0;
}

static void add_report(struct mmf_guest_cover *c, const char *title, char *body, bool kernel)
{
	if (c->nr_reports == MMF_GUEST_COVER_REPORTS) {
		free(body);
		return;
	}
	c->rep[c->nr_reports].title = mmf_xstrdup(title);
	c->rep[c->nr_reports].body = body;
	c->rep[c->nr_reports++].kernel = kernel;
}

void mmf_guest_cover_init(struct mmf_guest_cover *c)
{
	memset(c, 0, sizeof(*c));
	mmf_sb_init(&c->console);
	c->edges = mmf_xcalloc(MMF_GUEST_COVER_EDGES, 1);
}

void mmf_guest_cover_free(struct mmf_guest_cover *c)
{
	clear_reports(c);
	mmf_sb_free(&c->console);
	free(c->edges);
	free(c->pcs);
	free(c->calls);
	memset(c, 0, sizeof(*c));
}

/* "SI PARTY RES N HEX" of a traced call. */
static void take_call(struct mmf_guest_cover *c, const char *line)
{
	struct mmf_guest_call k = { 0 };
	long long res;
	int off;

	if (sscanf(line, "%d %d %lld %d %n", &k.si, &k.party, &res, &k.nstates, &off) != 4 ||
	    k.nstates < 0 || k.nstates > MMF_SERVE_TRACE_PAGES ||
	    !mmf_hex_get(line + off, k.states, k.nstates))
		return;
	k.res = res;
	if (c->nr_calls == c->cap_calls) {
		c->cap_calls = c->cap_calls ? 2 * c->cap_calls : 64;
		c->calls = mmf_xrealloc(c->calls, c->cap_calls * sizeof(*c->calls));
	}
	c->calls[c->nr_calls++] = k;
}

/* An answer's line into c; title is the last title line seen. */
static void take_cover_line(struct mmf_guest_cover *c, const char *line, char *title, size_t n)
{
	char *end;

	if (!strncmp(line, MMF_SERVE_EDGES, strlen(MMF_SERVE_EDGES))) {
		for (const char *p = line + strlen(MMF_SERVE_EDGES); *p; p = end) {
			unsigned long i = strtoul(p, &end, 16), k;

			if (end == p || *end != ':')
				break;
			k = strtoul(end + 1, &end, 16);
			if (i < MMF_GUEST_COVER_EDGES)
				c->edges[i] = k > 0xff ? 0xff : k;
		}
	} else if (!strncmp(line, MMF_SERVE_PCS, strlen(MMF_SERVE_PCS))) {
		for (const char *p = line + strlen(MMF_SERVE_PCS); *p; p = end) {
			uint64_t pc = strtoull(p, &end, 16);

			if (end == p)
				break;
			if (c->nr_pcs == c->cap_pcs) {
				c->cap_pcs = c->cap_pcs ? 2 * c->cap_pcs : 1024;
				c->pcs = mmf_xrealloc(c->pcs, c->cap_pcs * sizeof(*c->pcs));
			}
			c->pcs[c->nr_pcs++] = pc;
		}
	} else if (!strncmp(line, MMF_SERVE_CALL, strlen(MMF_SERVE_CALL))) {
		take_call(c, line + strlen(MMF_SERVE_CALL));
	} else if (!strncmp(line, MMF_SERVE_COUNTERS, strlen(MMF_SERVE_COUNTERS))) {
		c->has_counters = sscanf(line + strlen(MMF_SERVE_COUNTERS), "%ld %ld %ld %ld",
					 &c->counters[0], &c->counters[1], &c->counters[2],
					 &c->counters[3]) == MMF_GUEST_COUNTERS;
	} else if (!strncmp(line, MMF_SERVE_STATUS, strlen(MMF_SERVE_STATUS))) {
		unsigned long long ns = 0, user = 0, sys = 0, ph[MMF_SERVE_PHASES] = { 0 };

		if (sscanf(line + strlen(MMF_SERVE_STATUS),
			   "%15s %llu %15s %llu %llu %llu %llu %llu %llu %llu %llu", c->outcome,
			   &ns, c->feedback, &user, &sys, &ph[0], &ph[1], &ph[2], &ph[3], &ph[4],
			   &ph[5]) >= 1) {
			c->run_ns = ns;
			c->user_ns = user;
			c->sys_ns = sys;
			for (int i = 0; i < MMF_SERVE_PHASES; i++)
				c->phase_ns[i] = ph[i];
		}
	} else if (!strncmp(line, MMF_SERVE_TITLE, strlen(MMF_SERVE_TITLE))) {
		snprintf(title, n, "%s", line + strlen(MMF_SERVE_TITLE));
	} else if (!strncmp(line, MMF_SERVE_REPORT, strlen(MMF_SERVE_REPORT))) {
		add_report(c, title, mmf_unescape_line(line + strlen(MMF_SERVE_REPORT)), false);
	}
}

int mmf_guest_repro_bench(struct mmf_guest_repro *g, const char *name, int runs,
			  struct strbuf *json, struct strbuf *titles, struct mmf_guest_cover *c)
{
	char title[256] = "";
	struct strbuf req, answer;
	enum outcome out;
	int nr, got = 0;

	if (ensure_guest(g))
		return -1;
	mmf_sb_init(&req);
	mmf_sb_init(&answer);
	mmf_sb_printf(&req, MMF_SERVE_BENCH "%s %d%s\n" MMF_SERVE_END "\n", name, runs,
		      c ? " " MMF_SERVE_COVER : "");
	/* A run is seconds under KVM; allow a minute each. */
	out = request(g, &req, 60000LL * runs, &answer, NULL, &nr);
	for (char *p = answer.buf; p && *p; p = strchr(p, '\n') + 1) {
		size_t len = strcspn(p, "\n");

		if (!strncmp(p, MMF_SERVE_BENCH, strlen(MMF_SERVE_BENCH))) {
			mmf_sb_add(json, p + strlen(MMF_SERVE_BENCH),
			       len + 1 - strlen(MMF_SERVE_BENCH));
			got++;
		} else if (c && !strncmp(p, MMF_SERVE_PCS, strlen(MMF_SERVE_PCS))) {
			char *line = strndup(p, len);

			take_cover_line(c, line, title, sizeof(title));
			free(line);
		} else if (!strncmp(p, MMF_SERVE_TITLE, strlen(MMF_SERVE_TITLE))) {
			mmf_sb_add(titles, p + strlen(MMF_SERVE_TITLE),
				   len + 1 - strlen(MMF_SERVE_TITLE));
		}
	}
	info(g, "bench %s: %s, %d run(s), %d kernel report(s)", name, outcome_names[out], got, nr);
	mmf_sb_free(&req);
	mmf_sb_free(&answer);
	if (out == FAILED && !nr)
		return -1;	/* the benchmark's own failure */
	/* Otherwise the kernel's doing: a finding of the run, not a failure. */
	if (out != DONE && !nr)
		mmf_sb_printf(titles, "%s\n", mmf_guest_silent_title(outcome_names[out]));
	return got;
}

/* A program's request of kind (MMF_SERVE_COVER, MMF_SERVE_TRACE) into c. */
static int program_request(struct mmf_guest_repro *g, const char *kind,
			   const struct mmf_prog *p, struct mmf_guest_cover *c)
{
	struct strbuf req, answer;
	struct mmf_report *reps;
	char title[512] = "";
	enum outcome out;
	int nr;

	memset(c->edges, 0, MMF_GUEST_COVER_EDGES);
	c->nr_pcs = 0;
	c->nr_calls = 0;
	c->has_counters = false;
	c->console.len = 0;
	clear_reports(c);
	c->outcome[0] = c->feedback[0] = '\0';
	c->run_ns = c->user_ns = c->sys_ns = 0;
	memset(c->phase_ns, 0, sizeof(c->phase_ns));
	if (ensure_guest(g))
		return -1;
	mmf_sb_init(&req);
	mmf_sb_init(&answer);
	mmf_sb_printf(&req, "%s\n", kind);
	mmf_prog_print(p, &req);
	mmf_sb_puts(&req, "\n" MMF_SERVE_END "\n");
	out = request(g, &req, g->o.timeout_ms, &answer, &c->console, &nr);
	for (char *l = answer.buf; l && *l;) {
		char *nl = strchr(l, '\n');

		if (nl)
			*nl = '\0';
		take_cover_line(c, l, title, sizeof(title));
		l = nl ? nl + 1 : NULL;
	}
	/* The console's kernel reports, with their text. */
	nr = c->console.len ? mmf_report_parse(c->console.buf, c->console.len, &reps) : 0;
	for (int i = 0; i < nr; i++)
		add_report(c, reps[i].title, mmf_xstrdup(reps[i].text ? reps[i].text : ""), true);
	if (nr > 0)
		mmf_reports_free(reps, nr);
	if (out != DONE)
		snprintf(c->outcome, sizeof(c->outcome), "%s", outcome_names[out]);
	mmf_sb_free(&req);
	mmf_sb_free(&answer);
	return 0;
}

int mmf_guest_repro_cover(struct mmf_guest_repro *g, const struct mmf_prog *p,
			  struct mmf_guest_cover *c)
{
	return program_request(g, MMF_SERVE_COVER, p, c);
}

int mmf_guest_repro_trace(struct mmf_guest_repro *g, const struct mmf_prog *p,
			  struct mmf_guest_cover *c)
{
	return program_request(g, MMF_SERVE_TRACE, p, c);
}
