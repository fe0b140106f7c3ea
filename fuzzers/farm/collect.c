// SPDX-License-Identifier: GPL-2.0
/* mmfuzz farm collect: LAVA job logs into a crash store (see farm.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/monitor.h"
#include "campaign/receive.h"
#include "farm/farm.h"
#include "nightly/nightly.h"
#include "store/tally.h"
#include "store/wire.h"
#include "vm/vm.h"

/* As many programs as a campaign keeps with a report. */
#define LAST_PROGS	10
/* What the guest's fuzzer prints once it runs: fuzzing from here (campaign.c). */
#define READY		"mmfuzz: fuzzing natively"
/* The title of a panic the parser found no report before (report/oops.c). */
#define PANIC		"kernel panic: "

struct job {
	const char *path;
	char *buf;
	size_t len;
	struct mmf_lava_log log;
	/* The console without frame lines, with the times of its lines. */
	struct strbuf con;
	size_t *ends;
	uint64_t *ms;
	size_t nr;
	struct mmf_wire_frames *frames;
	int damaged;		/* frame lines that were no frame */
	char damage[256];	/* the first one's */
	char *kernel, *arch;
	/* What the job did: figures from the console. */
	double programs, budget_s, fuzz_s, swap_in, swap_out;
	int findings, frame_findings, reports, lost;
	bool never;		/* the guest never fuzzed: a failed boot */
};

static void job_free(struct job *j)
{
	free(j->buf);
	mmf_lava_log_free(&j->log);
	mmf_sb_free(&j->con);
	free(j->ends);
	free(j->ms);
	mmf_wire_frames_free(j->frames);
	free(j->kernel);
	free(j->arch);
}

/* Where a console line's text starts: past the kernel's "[  12.3][ T45] " stamp. */
static bool kernel_line(const char *s, const char *end)
{
	if (s >= end || *s != '[')
		return false;
	for (s++; s < end && (*s == ' ' || *s == '.' || (*s >= '0' && *s <= '9')); s++)
		;
	return s < end && *s == ']';
}

/* The number after the last "key" of text, or 0. */
static double last_number(const char *text, const char *key)
{
	const char *p = text, *hit = NULL;

	while ((p = strstr(p, key))) {
		hit = p;
		p += strlen(key);
	}
	return hit ? strtod(hit + strlen(key), NULL) : 0;
}

/* The fuzzer's last progress line, "[    60s] progs 123 (2.0/s) ...": its time. */
static void progress(const char *text, double *secs)
{
	const char *p = text, *hit = NULL;

	while ((p = strstr(p, "s] progs "))) {
		hit = p;
		p++;
	}
	*secs = 0;
	if (!hit)
		return;
	for (p = hit; p > text && p[-1] != '['; p--)
		;
	*secs = strtod(p, NULL);
}

/* The budget init gave the fuzzer: the last --duration of its "running:" line. */
static double budget_of(const char *con)
{
	static const char opt[] = " --duration ";
	const char *run = strstr(con, "mmfuzz-init: running: "), *nl, *d, *last = NULL;
	char t[32];
	int64_t ms;

	if (!run)
		return 0;
	nl = strchrnul(run, '\n');
	for (d = run; (d = memmem(d, nl - d, opt, strlen(opt))); d++)
		last = d + strlen(opt);
	if (!last || sscanf(last, "%31s", t) != 1)
		return 0;
	ms = mmf_parse_duration_ms(t);
	return ms > 0 ? ms / 1000.0 : 0;
}

/* Split the console: frames aside, the rest with times; the kernel the guest ran. */
static void job_read(struct job *j)
{
	const char *c = j->log.console.buf ? j->log.console.buf : "";
	const char *start, *ready;
	size_t from = 0;
	char rel[128], arch[32];

	j->frames = mmf_wire_frames_new();
	mmf_sb_init(&j->con);
	j->ends = mmf_xcalloc(j->log.nr + 1, sizeof(*j->ends));
	j->ms = mmf_xcalloc(j->log.nr + 1, sizeof(*j->ms));
	for (size_t i = 0; i < j->log.nr; i++) {
		const char *l = c + from;
		size_t len = j->log.ends[i] - from;
		char why[256];
		int r = mmf_wire_frames_line(j->frames, l, len, why, sizeof(why));

		from = j->log.ends[i];
		if (r < 0 && !j->damaged++)
			snprintf(j->damage, sizeof(j->damage), "%s", why);
		if (r)
			continue;
		mmf_sb_add(&j->con, l, len);
		j->ends[j->nr] = j->con.len;
		j->ms[j->nr++] = j->log.ms[i];
	}
	if (!j->con.buf)
		mmf_sb_puts(&j->con, "");
	start = strstr(j->con.buf, "mmfuzz-init: start: Linux ");
	if (start && sscanf(start, "mmfuzz-init: start: Linux %127s %31s", rel, arch) == 2) {
		/* uname -m's "aarch64" is the arm64 of campaigns and --arch. */
		const struct mmf_vm_arch *a = mmf_vm_arch_find(arch);

		j->kernel = mmf_xstrdup(rel);
		j->arch = mmf_xstrdup(a ? a->name : arch);
	}
	progress(j->con.buf, &j->fuzz_s);
	j->budget_s = budget_of(j->con.buf);
	/* Programs started, a panic's last among them: the execution log's marks. */
	for (const char *p = j->con.buf; (p = strstr(p, MMF_VM_EXEC_MARK)); p++)
		j->programs++;
	ready = strstr(j->con.buf, MMF_FARM_START);
	if (!j->fuzz_s && ready && j->nr) {
		size_t at = ready - j->con.buf, k = 0;

		while (k < j->nr && j->ends[k] <= at)
			k++;
		if (k < j->nr)
			j->fuzz_s = (j->ms[j->nr - 1] - j->ms[k]) / 1000.0;
	}
	j->swap_in = last_number(j->con.buf, "mmfuzz-init: vmstat pswpin ");
	j->swap_out = last_number(j->con.buf, "mmfuzz-init: vmstat pswpout ");
}

/* The lines of user space in con[0..len): the execution log the guest wrote there. */
static char *exec_view(const char *con, size_t len)
{
	struct strbuf sb;

	mmf_sb_init(&sb);
	for (const char *s = con, *end = con + len; s < end;) {
		const char *nl = memchr(s, '\n', end - s), *le = nl ? nl + 1 : end;

		if (!kernel_line(s, le))
			mmf_sb_add(&sb, s, le - s);
		s = le;
	}
	return sb.buf ? mmf_sb_detach(&sb) : mmf_xstrdup("");
}

/* The guest's oracles' findings, from its frames. 0, or -1 and err (the store). */
static int take_frames(struct job *j, struct mmf_receiver *rx, char *err, size_t n)
{
	for (int i = 0; i < mmf_wire_frames_count(j->frames); i++) {
		struct mmf_wire_finding f;
		char why[256];
		int r = mmf_wire_frames_get(j->frames, i, &f, why, sizeof(why));
		struct mmf_crash c;

		if (r <= 0) {
			j->lost++;
			fprintf(rx->info, "farm: %s: a finding lost: %s\n", j->path, why);
			continue;
		}
		c = (struct mmf_crash){
			.title = f.title, .report = f.report, .progs = f.progs,
			.log = f.log[0] ? f.log : j->con.buf,
		};
		r = mmf_receive_save(rx, &c, rx->store, false, mmf_now_ns() / 1000000, err, n);
		mmf_wire_finding_free(&f);
		if (r)
			return -1;
		j->frame_findings++;
	}
	return 0;
}

/* A monitor fed con from off, with the times of its lines. */
static struct mmf_monitor *monitor_from(const struct job *j, size_t off, bool ready)
{
	struct mmf_monitor_opts mo = { .settle_ms = 1, .hang_ms = UINT64_MAX,
				       .boot_ms = UINT64_MAX, .ready = READY,
				       .ended = MMF_FARM_END };
	struct mmf_monitor *m = mmf_monitor_new(&mo, 0);
	size_t from = off;

	/* The fuzzer was running when the console was cut at an earlier report. */
	if (ready)
		mmf_monitor_feed(m, READY "\n", strlen(READY) + 1, 0);
	for (size_t i = 0; i < j->nr; i++) {
		if (j->ends[i] <= off)
			continue;
		mmf_monitor_feed(m, j->con.buf + from, j->ends[i] - from, j->ms[i]);
		from = j->ends[i];
	}
	return m;
}

/*
 * The kernel's reports on the console, each with the programs before it;
 * and when the guest neither ended nor died of a report, its death or
 * silence. A guest in a farm is not restarted: a report that
 * does not kill it is followed by more fuzzing, and more reports.
 */
static int take_console(struct job *j, const struct mmf_farm_collect_opts *o,
			struct mmf_receiver *rx, char *err, size_t n)
{
	size_t off = 0;

	for (;;) {
		struct mmf_monitor *m = monitor_from(j, off, off > 0);
		struct mmf_finding f;
		bool boot, gone, report;
		size_t end;
		int r = 0;

		mmf_monitor_poll(m, j->log.end_ms + 1, true, &f);
		boot = f.kind == MMF_FOUND_BOOT_CRASH;
		report = f.kind == MMF_FOUND_REPORT;
		gone = f.kind == MMF_FOUND_LOST || f.kind == MMF_FOUND_HANG;
		/* As a campaign's guest that died booting: no finding, a failed boot. */
		j->never |= gone && !mmf_monitor_ready(m);
		gone &= !j->never;
		end = report && f.end ? off + f.end - (off ? strlen(READY) + 1 : 0) : j->con.len;
		/*
		 * After a report, a death, silence or panic counts when the
		 * fuzzer went on; else it is the first one's fallout (as the
		 * panic of oops=panic after a BUG's end of trace). Another
		 * report counts either way: one program may drop two mms with
		 * bad counters (a racing group's fork and its parent), and the
		 * guest counts both.
		 */
		if (j->reports && (gone || (report && !strncmp(f.title, PANIC, strlen(PANIC)))) &&
		    !memmem(j->con.buf + off, end - off, MMF_VM_EXEC_MARK, strlen(MMF_VM_EXEC_MARK)))
			gone = report = false;
		if (report || boot || gone) {
			char *ex = exec_view(j->con.buf, end);
			char *dir = boot ? mmf_xasprintf("%s/boot-crashes", o->store) : NULL;
			/* Silent while LAVA watched; its power-off's echo does not count. */
			bool silent = gone && j->log.lava &&
				      j->log.end_ms - j->log.target_ms >= (uint64_t)o->hang_ms;
			struct mmf_crash c = {
				.title = silent ? "no output from test machine" : f.title,
				.report = f.report, .log = j->con.buf,
				.alt_titles = (const char *const *)f.alt_titles,
				.nr_alt = f.nr_alt, .corrupted = f.corrupted,
				.progs = mmf_last_progs(ex, strlen(ex), LAST_PROGS),
			};

			r = mmf_receive_save(rx, &c, dir ? dir : rx->store, boot,
					     mmf_now_ns() / 1000000, err, n);
			j->reports += report;
			j->findings += !boot;
			free(dir);
			free(ex);
		}
		off = end;
		mmf_finding_free(&f);
		mmf_monitor_free(m);
		if (r)
			return -1;
		if (off >= j->con.len)
			return 0;
	}
}

/* A mark per log collected, by its bytes' hash: a log collected twice counts once. */
static int claim(const struct mmf_farm_collect_opts *o, const struct job *j, char **mark,
		 char *err, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	char *text;
	int r;

	for (size_t i = 0; i < j->len; i++)
		h = (h ^ (unsigned char)j->buf[i]) * 0x100000001b3ull;
	*mark = mmf_xasprintf("%s/farm/logs/%016llx", o->store, (unsigned long long)h);
	text = mmf_xasprintf("%s\n", j->path);
	r = mmf_write_file_new(*mark, text, strlen(text));
	free(text);
	if (r && errno != EEXIST)
		snprintf(err, n, "cannot write %s: %s", *mark, strerror(errno));
	return r ? (errno == EEXIST ? 1 : -1) : 0;
}

/* The batch's night: its bugs from the tally, its figures from the jobs. */
static int night(const struct mmf_farm_collect_opts *o, struct job *jobs, int nj,
		 const struct mmf_tally *t, char **id, char *err, size_t n)
{
	char *dir = NULL, *crashes = mmf_xasprintf("%s/crashes", o->store);
	struct strbuf bugs, js, kernels, archs, more;
	struct mmf_bug *b = NULL;
	int nb = mmf_store_list(crashes, &b), r, findings = 0;
	struct mmf_night rec = { .commit = "-", .config = "-" };
	struct mmf_history h;
	double fuzz_s = 0;

	free(crashes);
	nb = nb < 0 ? 0 : nb;
	mmf_sb_init(&bugs);
	mmf_sb_init(&js);
	mmf_sb_init(&kernels);
	mmf_sb_init(&archs);
	mmf_sb_init(&more);
	for (int i = 0; i < t->nr; i++)
		for (int k = 0; k < nb; k++)
			if (!strcmp(b[k].title, t->t[i].title)) {
				mmf_night_bug(&bugs, &js, &b[k], t->t[i].count, t->t[i].new_bug);
				rec.bugs++;
				rec.new_bugs += t->t[i].new_bug;
				findings += t->t[i].count;
			}
	for (int i = 0; i < nj; i++) {
		const struct job *j = &jobs[i];

		if (j->kernel && (!kernels.buf || !strstr(kernels.buf, j->kernel)))
			mmf_sb_printf(&kernels, "%s%s", kernels.len ? ", " : "", j->kernel);
		if (j->arch && (!archs.buf || !strstr(archs.buf, j->arch)))
			mmf_sb_printf(&archs, "%s%s", archs.len ? "," : "", j->arch);
		rec.budget_s += j->budget_s;
		rec.programs += j->programs;
		rec.swap_in += j->swap_in;
		rec.swap_out += j->swap_out;
		fuzz_s += j->fuzz_s;
		mmf_sb_printf(&more, "job: %s: %.0f programs, %d findings, %d lost\n", j->path,
			      j->programs, j->findings + j->frame_findings, j->lost);
	}
	rec.findings = findings;
	rec.kernel = kernels.buf ? kernels.buf : "-";
	rec.arch = archs.buf ? archs.buf : "-";
	rec.programs_s = fuzz_s > 0 ? rec.programs / fuzz_s : 0;
	r = mmf_night_make(o->store, &rec.id, &dir, err, n);
	if (!r)
		r = mmf_night_write(dir, &(struct mmf_night_record){
			.night = &rec, .fuzz_s = fuzz_s, .boots = nj,
			.bugs = bugs.buf ? bugs.buf : "", .bugs_json = js.buf ? js.buf : "",
			.more = more.buf,
		}, err, n);
	for (int i = 0; i < t->nr && !r; i++)
		r = mmf_bug_report_write(o->store, t->t[i].title, &rec, err, n);
	if (!r)
		r = mmf_history_load(o->store, 3, &h, err, n);
	if (!r) {
		r = mmf_dashboard_write(o->store, &h, err, n);
		mmf_history_free(&h);
	}
	*id = rec.id;
	free(dir);
	mmf_sb_free(&bugs);
	mmf_sb_free(&js);
	mmf_sb_free(&kernels);
	mmf_sb_free(&archs);
	mmf_sb_free(&more);
	if (nb > 0)
		mmf_bugs_free(b, nb);
	return r;
}

static int check_store(const char *store, char *err, size_t n)
{
	static const char *const sub[] = { "crashes", "farm/logs", "nights" };

	for (size_t i = 0; i < ARRAY_SIZE(sub); i++) {
		char *d = mmf_xasprintf("%s/%s", store, sub[i]);
		int r = mmf_mkdir_p(d, 0755) || access(d, W_OK);

		if (r)
			snprintf(err, n, "cannot write the store: %s: %s", d, strerror(errno));
		free(d);
		if (r)
			return -1;
	}
	return 0;
}

int mmf_farm_collect(const struct mmf_farm_collect_opts *o, char *err, size_t n)
{
	struct job *jobs = mmf_xcalloc(o->nr_logs + 1, sizeof(*jobs));
	struct mmf_tally tally = { 0 };
	char *crashes = mmf_xasprintf("%s/crashes", o->store), *id = NULL;
	int ret = 0, taken = 0, lost = 0, found = 0, never = 0;

	/* Every log read and parsed, and the store writable, before anything is saved. */
	for (int i = 0; i < o->nr_logs && !ret; i++) {
		struct job *j = &jobs[i];
		char why[256];

		j->path = o->logs[i];
		j->buf = mmf_read_file(j->path, &j->len);
		if (!j->buf) {
			snprintf(err, n, "%s: %s", j->path, strerror(errno));
			ret = -1;
		} else if (mmf_lava_log_parse(j->buf, j->len, &j->log, why, sizeof(why))) {
			snprintf(err, n, "%s: %s", j->path, why);
			ret = -1;
		}
	}
	if (!ret)
		ret = check_store(o->store, err, n);
	for (int i = 0; i < o->nr_logs && !ret; i++) {
		struct job *j = &jobs[i];
		struct mmf_receiver rx;
		char *mark = NULL;
		int c = claim(o, j, &mark, err, n);

		if (c) {
			if (c > 0)
				fprintf(o->info, "farm: %s: collected before (%s): skipped\n", j->path,
					mark);
			ret = c < 0 ? -1 : 0;
			free(mark);
			continue;
		}
		job_read(j);
		rx = (struct mmf_receiver){
			.store = crashes, .kernel = j->kernel, .arch = j->arch,
			.vmlinux = o->vmlinux, .tally = &tally, .info = o->info, .who = j->path,
			.origin = "fuzzer",	/* shards fuzz with their own programs */
		};
		ret = take_frames(j, &rx, err, n);
		if (!ret)
			ret = take_console(j, o, &rx, err, n);
		mmf_receiver_free(&rx);
		if (ret) {
			unlink(mark);	/* not collected: the next collector may try */
			free(mark);
			break;
		}
		free(mark);
		if (j->damaged)
			fprintf(o->info, "farm: %s: %d damaged frame lines, the first: %s\n",
				j->path, j->damaged, j->damage);
		fprintf(o->info, "farm: %s: %s %s, %.0f programs, %d findings (%d sent by the"
			" fuzzer, %d kernel reports), %d lost%s%s\n", j->path,
			j->kernel ? j->kernel : "unknown kernel", j->arch ? j->arch : "", j->programs,
			j->frame_findings + j->findings, j->frame_findings, j->reports, j->lost,
			j->log.result[0] ? ", LAVA: " : "", j->log.result);
		if (j->never)
			fprintf(o->info, "farm: %s: the guest never started fuzzing (a failed boot)\n",
				j->path);
		taken++;
		never += j->never;
		lost += j->lost;
		found += j->frame_findings + j->findings;
	}
	if (!ret && taken)
		ret = night(o, jobs, o->nr_logs, &tally, &id, err, n);
	if (!ret && taken) {
		fprintf(o->info, "farm: %d jobs collected (%d never fuzzed): %d findings, %d titles"
			" (%d new) in %s; night %s\n", taken, never, found, tally.nr,
			mmf_tally_new(&tally), crashes, id);
		mmf_tally_print(&tally, o->info);
	}
	if (!ret && lost) {
		snprintf(err, n, "%d findings lost in damaged or missing frames (see above)", lost);
		ret = -1;
	}
	for (int i = 0; i < o->nr_logs; i++)
		job_free(&jobs[i]);
	free(jobs);
	free(crashes);
	free(id);
	if (!ret)
		ret = mmf_tally_exit(&tally);
	mmf_tally_free(&tally);
	return ret;
}
