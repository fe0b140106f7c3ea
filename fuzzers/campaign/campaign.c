// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "campaign/afl.h"
#include "campaign/campaign.h"
#include "campaign/monitor.h"
#include "repro/repro.h"
#include "store/store.h"
#include "cover/cover.h"
#include "campaign/receive.h"
#include "campaign/seeds.h"
#include "util/util.h"

/* Programs kept from a guest's execution log to go with a finding. */
#define LAST_PROGS	10
/* The first boot after a failed one waits this long, doubling, up to 32 s. */
#define BACKOFF_MS	2000

struct guest {
	int id, boot;
	struct mmf_vm *vm;	/* NULL while waiting to boot again */
	struct mmf_monitor *mon;
	struct strbuf exec;	/* this boot's execution log */
	struct mmf_receiver rx;	/* its findings channel's host end */
	bool running;		/* its first program was logged */
	int console_fd;		/* this boot's console file */
	int failed;		/* boots in a row that failed */
	uint64_t boot_at;	/* when to boot again, while vm is NULL */
	char *dir;
	const char *focus;	/* the focus text for the coverage channel, NULL none */
	struct mmf_vm_snap snap;	/* OUT/vm-N/snapshot */
	bool restored;		/* this boot was restored from it */
	char go[96];		/* this boot's options at the snapshot point */
	const char *seeds;	/* the seeds' stream, sent after the options */
	int nr_seeds, seeds_done;	/* seeds run first by the boots so far */
	int pcs_fd;		/* OUT/vm-N/pcs, -1 without --cover */
	bool done;		/* once: its boot ended */
	char who[16];
};

/* kvm/init's line after the fuzzer, with its exit status. */
#define ENDED	"mmfuzz-init: mmfuzz exited with status "

static int guest_start(const struct mmf_campaign_opts *o, struct guest *g, int64_t left_ms,
		       char *err, size_t n)
{
	int slow = mmf_vm_slowdown(o->guest.accel);
	struct mmf_monitor_opts mo = {
		.settle_ms = 2000ull * slow,
		.hang_ms = o->hang_ms ? (uint64_t)o->hang_ms : 2ull * MMF_VM_PROG_MS * slow,
		.boot_ms = (uint64_t)MMF_VM_BOOT_MS * slow * 2,
		.ready = "mmfuzz: fuzzing natively",
		.ended = ENDED,
	};
	struct mmf_guest_argv args = { 0 };
	char why[256], *work, *exec_log, *console, *pcs = NULL;
	struct mmf_vm_config c = { .guest = o->guest, .findings = true };
	int r;

	mmf_vm_fuzzing_machine(&c);
	/* A restored guest would repeat its first boot's programs without a seed of its own. */
	r = snprintf(g->go, sizeof(g->go), "--seed %llu --seeds -",
		     (unsigned long long)((mmf_now_ns() * 0x9e3779b97f4a7c15ull ^
					  (uint64_t)g->id << 48) & INT64_MAX));
	/* Each seed runs once as it is, from where the last boot's pass stopped. */
	if (g->seeds_done < g->nr_seeds)
		snprintf(g->go + r, sizeof(g->go) - r, " --seeds-from %d", g->seeds_done);
	/* The guest fuzzes past the budget: the host ends it (once: the guest does). */
	mmf_guest_argv_opt(&args, "--duration", "%llds",
			   (long long)MAX(left_ms / 1000 + (o->once ? 0 : 60), 1));
	mmf_guest_argv_timeout(&args, o->guest.accel);
	mmf_guest_argv_list(&args, o->guest.guest_args);
	g->boot++;
	if (o->nr_lkdtm)
		mmf_guest_argv_opt(&args, "--lkdtm", "%s", o->lkdtm[(g->boot - 1) % o->nr_lkdtm]);
	if (mmf_guest_argv_check(&args, err, n))
		return -1;
	c.guest.guest_args = args.v;
	work = mmf_xasprintf("%s/boot-%d", g->dir, g->boot);
	if (mmf_mkdir_p(work, 0755)) {
		snprintf(err, n, "cannot create %s: %s", work, strerror(errno));
		free(work);
		return -1;
	}
	exec_log = mmf_xasprintf("%s/exec.log", work);
	console = mmf_xasprintf("%s/console.log", work);
	c.workdir = work;
	c.exec_log = exec_log;
	if (o->cover) {
		pcs = mmf_xasprintf("%s/pcs", g->dir);
		c.cover = true;
		g->pcs_fd = open(pcs, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (g->pcs_fd < 0) {
			snprintf(err, n, "cannot create %s: %s", pcs, strerror(errno));
			free(pcs);
			return -1;
		}
	}
	g->console_fd = open(console, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (g->console_fd < 0) {
		snprintf(err, n, "cannot create %s: %s", console, strerror(errno));
		r = -1;
	} else {
		r = mmf_vm_snap_start(&g->snap, &c, g->go, g->seeds, g->console_fd, &g->vm, why,
				      sizeof(why), err, n);
		if (g->snap.fetched && o->info)
			fprintf(o->info, "mmfuzz: vm %d: the snapshot cache has this guest\n", g->id);
		if (why[0] && o->info)
			fprintf(o->info, "mmfuzz: vm %d: boot %d: cannot restore its snapshot (%s):"
				" booting\n", g->id, g->boot, why);
		if (r == 1 && o->info)
			fprintf(o->info, "mmfuzz: vm %d: boot %d: restored from its snapshot in %.1f s\n",
				g->id, g->boot, (mmf_now_ns() - mmf_vm_started_ns(g->vm)) / 1e9);
		g->restored = r == 1;
		r = r < 0 ? -1 : 0;
	}
	/* The focus waits in the socket until the guest's fuzzer reads it. */
	if (!r && g->focus && mmf_write_all(mmf_vm_cover_fd(g->vm), g->focus, strlen(g->focus)))
		mmf_warnx_("campaign: vm %d: cannot send the focus: %s", g->id, strerror(errno));
	if (!r && o->info && g->boot == 1) {
		char *line = mmf_vm_argv_str(mmf_vm_args(g->vm));

		fprintf(o->info, "mmfuzz: vm %d: %s\n", g->id, line);
		fflush(o->info);
		free(line);
	}
	free(work);
	free(exec_log);
	free(console);
	free(pcs);
	g->mon = mmf_monitor_new(&mo, mmf_now_ns() / 1000000);
	mmf_sb_init(&g->exec);
	g->running = false;
	return r;
}

static void guest_stop(struct guest *g, struct mmf_campaign_stats *st)
{
	if (g->vm)
		mmf_vm_stop(g->vm);
	g->vm = NULL;
	for (const char *p = g->exec.buf; p && (p = strstr(p, MMF_VM_EXEC_MARK)); p++) {
		st->programs++;
		/* The seed pass goes on after the last seed this boot ran (it may have crashed). */
		g->seeds_done = MIN(g->seeds_done + 1, g->nr_seeds);
	}
	mmf_monitor_free(g->mon);
	g->mon = NULL;
	mmf_sb_free(&g->exec);
	if (g->console_fd >= 0)
		close(g->console_fd);
	g->console_fd = -1;
	if (g->pcs_fd >= 0)
		close(g->pcs_fd);
	g->pcs_fd = -1;
}

char *mmf_campaign_store(const struct mmf_campaign_opts *o)
{
	return o->store ? mmf_xstrdup(o->store) : mmf_xasprintf("%s/crashes", o->out);
}

/* A finding of the console monitor: a kernel report, a hang, a death. */
static int save(const struct mmf_campaign_opts *o, struct guest *g, const struct mmf_finding *f,
		struct mmf_campaign_stats *st, char *err, size_t n)
{
	bool boot = f->kind == MMF_FOUND_BOOT_CRASH;
	char *dir = boot ? mmf_xasprintf("%s/boot-crashes", o->out) : mmf_campaign_store(o);
	size_t len;
	struct mmf_crash c = {
		.title = f->title, .report = f->report,
		.alt_titles = (const char *const *)f->alt_titles, .nr_alt = f->nr_alt,
		.corrupted = f->corrupted, .log = mmf_monitor_log(g->mon, &len),
		.progs = mmf_last_progs(g->exec.buf, g->exec.len, LAST_PROGS),
	};
	int r;

	st->boot_crashes += boot;
	st->reports += f->kind == MMF_FOUND_REPORT;
	st->hangs += f->kind == MMF_FOUND_HANG;
	st->lost += f->kind == MMF_FOUND_LOST;
	r = mmf_receive_save(&g->rx, &c, dir, boot, mmf_monitor_time_at(g->mon, f->end), err, n);
	free(dir);
	return r;
}

/* The findings the guest's fuzzer sent on its channel. */
static int take_findings(struct guest *g, struct mmf_campaign_stats *st, char *err, size_t n)
{
	int before = g->rx.received, r;
	size_t len;
	const char *con = mmf_monitor_log(g->mon, &len);

	r = mmf_receive(&g->rx, mmf_vm_findings_fd(g->vm), con, len, err, n);
	st->reports += g->rx.received - before;
	st->channel += g->rx.received - before;
	return r;
}

/* Move what a guest printed into its monitor and files; false once it is gone. */
static bool pump(const struct mmf_campaign_opts *o, struct guest *g, uint64_t now)
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
		mmf_write_all(g->console_fd, buf, r);
		if (o->echo)
			fwrite(buf, 1, r, o->echo);
	}
	while ((r = mmf_vm_read_exec_log(g->vm, buf, sizeof(buf))) > 0)
		mmf_sb_add(&g->exec, buf, r);
	while (g->pcs_fd >= 0 && (r = read(mmf_vm_cover_fd(g->vm), buf, sizeof(buf))) > 0)
		mmf_write_all(g->pcs_fd, buf, r);
	return alive && mmf_vm_alive(g->vm);
}

/*
 * The first boot at its snapshot point: save the guest there when its
 * swap is still untouched, then let it go on with its options.
 */
static void snapshot_point(const struct mmf_campaign_opts *o, struct guest *g)
{
	size_t len;
	uint64_t t0 = mmf_now_ns();
	char err[512];

	if (!mmf_vm_snap_point(&g->snap, g->vm, mmf_monitor_log(g->mon, &len), g->go, g->seeds,
			       err, sizeof(err)))
		return;
	if (err[0])
		mmf_warnx_("campaign: vm %d: %s", g->id, err);
	if (g->snap.saved && o->info)
		fprintf(o->info, "mmfuzz: vm %d: boot %d: saved at its snapshot point in %.1f s\n",
			g->id, g->boot, (mmf_now_ns() - t0) / 1e9);
}

static void note_first_program(const struct mmf_campaign_opts *o, struct guest *g)
{
	if (g->running || !g->exec.len || !strstr(g->exec.buf, MMF_VM_EXEC_MARK))
		return;
	g->running = true;
	if (o->info)
		fprintf(o->info, "mmfuzz: vm %d: boot %d: first program %.1f s after QEMU started\n",
			g->id, g->boot, (mmf_now_ns() - mmf_vm_started_ns(g->vm)) / 1e9);
	if (o->info)
		fflush(o->info);
}

/*
 * A boot that failed: QEMU exited at once, the kernel printed nothing or
 * died before the fuzzer started, or crashed while booting.
 */
static bool boot_failed(const struct guest *g, const struct mmf_finding *f)
{
	return f->kind == MMF_FOUND_BOOT_CRASH ||
	       (!mmf_monitor_ready(g->mon) && f->kind != MMF_FOUND_REPORT);
}

/* What a failed boot printed last, for the user: QEMU's error, as a rule. */
static void last_line(const struct guest *g, char *buf, size_t n)
{
	size_t len, end;
	const char *log = mmf_monitor_log(g->mon, &len), *p;

	for (end = len; end && (log[end - 1] == '\n' || log[end - 1] == '\r'); end--)
		;
	for (p = log + end; p > log && p[-1] != '\n'; p--)
		;
	if (!end)
		snprintf(buf, n, "no output at all");
	else
		snprintf(buf, n, "%.*s", (int)MIN(log + end - p, 200), p);
}

/*
 * The fuzzer's exit status from kvm/init's line, -1 if none: a guest whose
 * fuzzer ended on its own (a shorter --guest-arg --duration) is booted again.
 */
static int ended_status(const struct guest *g)
{
	size_t len;
	const char *log = mmf_monitor_log(g->mon, &len), *p = strstr(log, ENDED);

	return p ? atoi(p + strlen(ENDED)) : -1;
}

/*
 * Once: what init prints after the fuzzer (swap and vmstat), until the
 * guest powers off, or QEMU is stopped after limit_ms.
 */
static bool power_off(const struct mmf_campaign_opts *o, struct guest *g, uint64_t limit_ms)
{
	uint64_t now = mmf_now_ns() / 1000000, end = now + limit_ms;
	struct pollfd p = { .fd = mmf_vm_console_fd(g->vm), .events = POLLIN };

	while (pump(o, g, now) && now < end) {
		poll(&p, 1, 200);
		now = mmf_now_ns() / 1000000;
	}
	return !mmf_vm_alive(g->vm);
}

/* After a finding: keep the guest, or stop it and boot it again (later). */
static int after_finding(const struct mmf_campaign_opts *o, struct guest *g,
			 const struct mmf_finding *f, struct mmf_campaign_stats *st,
			 uint64_t now, char *err, size_t n)
{
	bool failed = boot_failed(g, f);
	char why[256];

	if (f->kind == MMF_FOUND_END) {
		int status = ended_status(g);
		bool off = o->once && power_off(o, g, 30000ull * mmf_vm_slowdown(o->guest.accel));

		if (o->info)
			fprintf(o->info, "mmfuzz: vm %d: boot %d: the fuzzer ended (exit status %d); %s\n",
				g->id, g->boot, status, !o->once ? "booting again" :
				off ? "the guest powered off" : "the guest did not power off");
		/* A fuzzer that fails at once fails the campaign as a failed boot does. */
		failed = status != 0;
		st->boot_failures += failed;
	} else if (failed && f->kind != MMF_FOUND_BOOT_CRASH) {
		char how[64];

		last_line(g, why, sizeof(why));
		if (o->info && f->kind == MMF_FOUND_LOST)
			fprintf(o->info, "mmfuzz: vm %d: boot %d failed (QEMU exited before the "
				"fuzzer started, %s): %s\n", g->id, g->boot,
				mmf_vm_ended(g->vm, how, sizeof(how)), why);
		else if (o->info)
			fprintf(o->info, "mmfuzz: vm %d: boot %d failed (the fuzzer did not start "
				"in time): %s\n", g->id, g->boot, why);
		st->boot_failures++;
	} else if (save(o, g, f, st, err, n)) {
		return -1;
	}
	g->failed = failed ? g->failed + 1 : 0;
	if (g->failed >= MMF_CAMPAIGN_BOOT_FAILS) {
		last_line(g, why, sizeof(why));
		snprintf(err, n, "vm %d: %d boots in a row failed; the last printed: %s", g->id,
			 g->failed, why);
		return -1;
	}
	guest_stop(g, st);
	g->done = o->once && !failed;
	g->boot_at = now + (failed ? (uint64_t)BACKOFF_MS << MIN(g->failed - 1, 4) : 0);
	return 0;
}

int mmf_campaign_write_focus(const struct mmf_campaign_opts *o, char **path, char *err, size_t n)
{
	struct mmf_focus f = { 0 };
	char *text;
	int r;

	if (mmf_focus_load(o->focus_vmlinux, o->focus, &f, err, n))
		return -1;
	*path = mmf_xasprintf("%s/focus", o->out);
	text = mmf_focus_format(&f);
	/* The end line tells a guest reading it from a port where it ends. */
	text = mmf_xrealloc(text, strlen(text) + sizeof(MMF_COVER_FOCUS_END "\n"));
	strcat(text, MMF_COVER_FOCUS_END "\n");
	r = mmf_write_file_atomic(*path, text, strlen(text));
	if (r)
		snprintf(err, n, "%s: %s", *path, strerror(errno));
	else
		fprintf(o->info, "mmfuzz: campaign: focus '%s': %zu range(s), %llu KiB of text\n",
			o->focus, f.n, (unsigned long long)mmf_focus_size(&f) >> 10);
	free(text);
	mmf_focus_free(&f);
	return r;
}

/* The progress line: the programs of the guests' execution logs so far. */
static void progress(const struct mmf_campaign_opts *o, const struct guest *gs,
		     const struct mmf_campaign_stats *st, uint64_t t0, uint64_t now, uint64_t end)
{
	struct mmf_progress p = {
		.ms = now - t0, .programs = (long long)st->programs, .pcs = -1, .edges = -1,
		.queue = -1, .found_new = mmf_tally_new(&st->tally), .boots = st->boots,
		.restarts = st->restarts, .left_ms = (int64_t)(end - now),
	};

	for (int i = 0; i < o->vms; i++)
		for (const char *q = gs[i].exec.buf; q && (q = strstr(q, MMF_VM_EXEC_MARK)); q++)
			p.programs++;
	for (int i = 0; i < st->tally.nr; i++)
		p.found += st->tally.t[i].count;
	mmf_progress_print(o->info, &p);
}

int mmf_campaign_run(const struct mmf_campaign_opts *o, struct mmf_campaign_stats *st,
		     char *err, size_t n)
{
	struct guest *gs = mmf_xcalloc(o->vms, sizeof(*gs));
	uint64_t t0 = mmf_now_ns() / 1000000, budget = t0 + o->duration_ms, shown = t0;
	/* Once: the guests end themselves; the host waits for their boot and end too. */
	uint64_t end = budget + (o->once ? (2ull * MMF_VM_BOOT_MS + MMF_VM_PROG_MS) *
					   mmf_vm_slowdown(o->guest.accel) : 0);
	char *store = mmf_campaign_store(o), *focus = NULL, *focus_text = NULL, *seeds;
	char *index = mmf_xasprintf("%s/" MMF_SEEDS_INDEX, o->out);
	unsigned int selftest = 0;	/* LKDTM types whose boot gave a report */
	struct strbuf stream;
	int rc = 0, nr_seeds = 0;

	memset(st, 0, sizeof(*st));
	mmf_sb_init(&stream);
	seeds = mmf_seeds_make(o->out, "seeds", o->corpus, 0, &nr_seeds, err, n);
	if (!seeds || mmf_seeds_text(seeds, &stream, err, n) ||
	    (o->cover && o->focus && mmf_campaign_write_focus(o, &focus, err, n))) {
		free(gs);
		free(store);
		free(seeds);
		free(index);
		mmf_sb_free(&stream);
		return -1;
	}
	if (o->info && nr_seeds)
		fprintf(o->info, "mmfuzz: campaign: %d seed(s) in %s, %s\n", nr_seeds, seeds,
			o->no_snapshot ? "not sent: --no-snapshot has no go port" :
			"each run once first");
	if (o->cover && o->focus) {
		focus_text = mmf_read_file(focus, NULL);
	} else if (o->cover) {
		/* No ranges: every PC counts, and the guest need not wait for any. */
		focus_text = mmf_xstrdup(MMF_COVER_FOCUS_END "\n");
	}
	for (int i = 0; i < o->vms; i++) {
		gs[i].focus = focus_text;
		gs[i].seeds = stream.buf;
		gs[i].nr_seeds = nr_seeds;
		gs[i].pcs_fd = -1;
		gs[i].id = i;
		gs[i].console_fd = -1;
		gs[i].dir = mmf_xasprintf("%s/vm-%d", o->out, i);
		mmf_vm_snap_init(&gs[i].snap, mmf_xasprintf("%s/snapshot", gs[i].dir));
		gs[i].snap.off = o->no_snapshot;
		gs[i].boot_at = t0;
		gs[i].rx = (struct mmf_receiver){
			.store = store, .kernel = o->guest.kernel, .arch = o->guest.arch->name,
			.vmlinux = o->vmlinux, .tally = &st->tally, .info = o->info,
			.who = gs[i].who, .seeds = index,
		};
		snprintf(gs[i].who, sizeof(gs[i].who), "vm %d", i);
		mmf_sb_init(&gs[i].rx.buf);
	}
	while (!(o->stop && *o->stop)) {
		uint64_t now = mmf_now_ns() / 1000000;
		struct pollfd pfd[128];
		int np = 0, done = 0;

		for (int i = 0; i < o->vms; i++)
			done += gs[i].done;
		if (now >= end || done == o->vms)
			break;
		if (o->info && !o->quiet && now - shown >= MMF_PROGRESS_MS) {
			progress(o, gs, st, t0, now, budget);
			shown = now;
		}
		if (o->nr_lkdtm && selftest == (1u << o->nr_lkdtm) - 1) {
			if (o->info)
				fprintf(o->info, "mmfuzz: campaign: self-test done: each LKDTM type was reported\n");
			break;
		}
		for (int i = 0; i < o->vms && np < 127; i++) {
			struct guest *g = &gs[i];
			struct mmf_finding f;
			bool dead;

			if (!g->vm && !g->done && now >= g->boot_at) {
				if (guest_start(o, g, budget > now ? budget - now : 0, err, n)) {
					rc = -1;
					goto out;
				}
				st->boots++;
				st->restarts += g->boot > 1;
				st->restored += g->restored;
				now = mmf_now_ns() / 1000000;
			}
			if (!g->vm)
				continue;
			dead = !pump(o, g, now);
			if (g->snap.at_point && !dead)
				snapshot_point(o, g);
			if (take_findings(g, st, err, n)) {
				rc = -1;
				goto out;
			}
			note_first_program(o, g);
			if (!mmf_monitor_poll(g->mon, now, dead, &f)) {
				pfd[np].fd = mmf_vm_console_fd(g->vm);
				pfd[np++].events = POLLIN;
				if (mmf_vm_findings_fd(g->vm) >= 0) {
					pfd[np].fd = mmf_vm_findings_fd(g->vm);
					pfd[np++].events = POLLIN;
				}
				if (mmf_vm_cover_fd(g->vm) >= 0 && np < 127) {
					pfd[np].fd = mmf_vm_cover_fd(g->vm);
					pfd[np++].events = POLLIN;
				}
				continue;
			}
			if (o->nr_lkdtm && f.kind == MMF_FOUND_REPORT)
				selftest |= 1u << ((g->boot - 1) % o->nr_lkdtm);
			rc = after_finding(o, g, &f, st, now, err, n);
			mmf_finding_free(&f);
			if (rc)
				goto out;
		}
		poll(pfd, np, 200);
	}
out:
	for (int i = 0; i < o->vms; i++) {
		if (gs[i].vm) {
			/* What the guest sent before it was stopped is saved too. */
			pump(o, &gs[i], mmf_now_ns() / 1000000);
			if (take_findings(&gs[i], st, rc ? NULL : err, rc ? 0 : n))
				rc = -1;
			if (o->once && !rc && !(o->stop && *o->stop)) {
				snprintf(err, n, "vm %d: boot %d did not end in time", i, gs[i].boot);
				rc = -1;
			}
			guest_stop(&gs[i], st);
		}
		mmf_vm_snap_free(&gs[i].snap);
	}
	/* The last line at the end, as the AFL++ engine's: every program counted. */
	if (!rc && o->info && !o->quiet) {
		uint64_t now = mmf_now_ns() / 1000000;

		progress(o, gs, st, t0, now, MAX(budget, now));
	}
	for (int i = 0; i < o->vms; i++) {
		free(gs[i].dir);
		mmf_receiver_free(&gs[i].rx);
	}
	free(gs);
	free(store);
	free(focus);
	free(focus_text);
	free(seeds);
	free(index);
	mmf_sb_free(&stream);
	return rc;
}

int mmf_campaign_main(const struct mmf_campaign_opts *o, bool afl, const char *who)
{
	struct mmf_campaign_stats st;
	char err[512], *summary, *extra;
	int rc = afl ? mmf_afl_campaign_run(o, &st, err, sizeof(err)) :
		       mmf_campaign_run(o, &st, err, sizeof(err));

	fflush(o->info);
	if (rc)
		mmf_warnx_("%s: %s", who, err);
	fprintf(o->info, "mmfuzz: %s: %d boot(s), %d restart(s) (%d from a snapshot), "
		"%llu program(s), %d report(s) (%d on the findings channels), %d hang(s), "
		"%d lost, %d boot crash(es), %d failed boot(s)\n", who, st.boots, st.restarts,
		st.restored, (unsigned long long)st.programs, st.reports, st.channel, st.hangs,
		st.lost, st.boot_crashes, st.boot_failures);
	mmf_tally_print(&st.tally, o->info);
	summary = mmf_xasprintf("%s/summary.json", o->out);
	extra = mmf_xasprintf("\"boots\":%d,\"restarts\":%d,\"restored\":%d,\"programs\":%llu,"
			      "\"boot_crashes\":%d,\"boot_failures\":%d,\"error\":%s", st.boots,
			      st.restarts, st.restored, (unsigned long long)st.programs,
			      st.boot_crashes, st.boot_failures, rc ? "true" : "false");
	if (mmf_tally_json(&st.tally, summary, extra)) {
		mmf_warnx_("%s: cannot write %s: %s", who, summary, strerror(errno));
		rc = -1;
	}
	free(summary);
	free(extra);
	rc = rc ? MMF_EXIT_ERROR : mmf_tally_exit(&st.tally);
	mmf_tally_free(&st.tally);
	return rc;
}
