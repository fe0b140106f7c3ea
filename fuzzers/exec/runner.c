// SPDX-License-Identifier: GPL-2.0
/*
 * Run a program in a fresh process group with a timeout, then collect what
 * it recorded and what the kernel printed meanwhile.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec/calls.h"
#include "exec/hang.h"
#include "exec/interp.h"
#include "exec/feedback.h"
#include "exec/kcov.h"
#include "exec/knobs.h"
#include "exec/pmcheck.h"
#include "model/uapi.h"
#include "model/arena.h"
#include "oracle/accounting.h"
#include "oracle/kmsg.h"

struct mmf_arena mmf_arena;
long mmf_psz;

/*
 * Whether every slot of a and the guard slot after it are free: probed
 * with mappings that are gone again when this returns. An address past the
 * user address space fails as a taken one does.
 */
static bool arena_free(const struct mmf_arena *a)
{
	long len = mmf_arena_slot_span(a);
	int m;

	for (m = 0; m < MMF_NR_MAPS; m++) {
		void *want = (void *)a->base[m];
		void *p = mmap(want, len, PROT_NONE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MMF_MAP_FIXED_NOREPLACE,
			       -1, 0);

		if (p == MAP_FAILED)
			break;
		if (p != want) {
			/* A kernel without MAP_FIXED_NOREPLACE treats it as a hint. */
			munmap(p, len);
			break;
		}
	}
	for (int k = 0; k < m; k++)
		munmap((void *)a->base[k], len);
	return m == MMF_NR_MAPS;
}

int mmf_exec_init(void)
{
	if (mmf_arena.layout)
		return 0;
	mmf_psz = sysconf(_SC_PAGESIZE);
	mmf_pmcheck_init();
	mmf_exec_map_init();
	for (size_t i = 0; i < MMF_NR_ARENA_LAYOUTS; i++) {
		struct mmf_arena a;

		mmf_arena_place(&a, &mmf_arena_layouts[i], mmf_psz);
		if (arena_free(&a)) {
			mmf_arena = a;
			return 0;
		}
	}
	errno = ENOMEM;
	return -1;
}

static void add_report(struct mmf_exec_result *r, const char *title, const char *body)
{
	r->reports = mmf_xrealloc(r->reports, (r->nr_reports + 1) * sizeof(*r->reports));
	r->reports[r->nr_reports].title = mmf_xstrdup(title);
	r->reports[r->nr_reports].body = mmf_xstrdup(body);
	r->reports[r->nr_reports].kernel = false;
	r->nr_reports++;
}

static void kmsg_report(const char *title, const char *text, void *arg)
{
	struct mmf_exec_result *r = arg;

	add_report(r, title, text);
	r->reports[r->nr_reports - 1].kernel = true;
}

/* "X race round delay spread cpu..." of a racing group's round (exec/race.c). */
static void add_round(struct mmf_exec_result *r, const char *line)
{
	struct mmf_race_round rr = { .parties = 0 };
	long long delay, spread;
	int race, round, off, cpu;

	if (sscanf(line, "X %d %d %lld %lld%n", &race, &round, &delay, &spread, &off) != 4)
		return;
	rr.race = race;
	rr.round = round;
	rr.delay_ns = delay;
	rr.spread_ns = spread;
	for (line += off; rr.parties < RACE_PARTIES; rr.parties++) {
		int n;

		if (sscanf(line, " %d%n", &cpu, &n) != 1)
			break;
		rr.cpu[rr.parties] = cpu;
		line += n;
	}
	r->rounds = mmf_xrealloc(r->rounds, (r->nr_rounds + 1) * sizeof(rr));
	r->rounds[r->nr_rounds++] = rr;
}

/* The behaviour trace's "A" record: the process's counters at the end. */
static void add_counters(struct mmf_exec_result *r, const char *line)
{
	long long v[MMF_EXEC_COUNTERS];

	if (sscanf(line, "A %lld %lld %lld %lld", &v[0], &v[1], &v[2], &v[3]) != 4)
		return;
	r->has_counters = true;
	for (int i = 0; i < MMF_EXEC_COUNTERS; i++)
		r->counters[i] = v[i];
}

/* The child's times (mmf_exec_interp): start, first and last statement, end. */
static void parse_records(struct mmf_exec_result *r, char *buf, size_t len, uint64_t *t)
{
	char *p = buf, *end = buf + len;

	while (p < end) {
		char *nl = memchr(p, '\n', end - p);
		struct mmf_call_result c;
		unsigned long long call_ns, check_ns;
		long long res;
		int si, party, sw, off = 0;
		size_t n;

		if (!nl)
			break;
		*nl = '\0';
		if (sscanf(p, "R %d %d %lld %d %llu %llu%n", &si, &party, &res, &sw, &call_ns,
			   &check_ns, &off) == 6) {
			/* The page states after it, when traced: " hex". */
			size_t hex = p[off] == ' ' ? strlen(p + off + 1) / 2 : 0;

			c.si = si;
			c.party = party;
			c.res = res;
			c.swapped = sw;
			c.call_ns = call_ns;
			c.check_ns = check_ns;
			c.nstates = hex <= MMF_STATE_PAGES &&
				    mmf_hex_get(p + off + 1, c.states, hex) ? hex : 0;
			r->results = mmf_xrealloc(r->results, (r->nr_results + 1) * sizeof(c));
			r->results[r->nr_results++] = c;
			r->swapped += sw > 0 ? sw : 0;
			p = nl + 1;
		} else if (sscanf(p, "C %zu", &n) == 1 && n <= (size_t)(end - nl - 1)) {
			char *text = nl + 1, *tnl = memchr(text, '\n', n);
			char *title = mmf_xasprintf("%.*s", (int)(tnl ? tnl - text : (long)n), text);
			char *body = mmf_xasprintf("%.*s", (int)n, text);

			add_report(r, title, body);
			free(title);
			free(body);
			p = text + n;
		} else if (sscanf(p, "T %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64, &t[0], &t[1],
				  &t[2], &t[3]) == 4) {
			p = nl + 1;
		} else if (*p == 'X') {
			add_round(r, p);
			p = nl + 1;
		} else if (*p == 'A') {
			add_counters(r, p);
			p = nl + 1;
		} else {
			/* A record cut by a crash: nothing after it is trustworthy. */
			break;
		}
	}
}

/* How often the runner looks at the calls in progress. */
#define HANG_TICK_MS	250

/*
 * Wait for the program, sampling its calls in progress every tick: a hung
 * call is reported (and the program killed) when its bound is exceeded
 * without progress, or at the timeout. Returns 1 if it timed out or hung.
 */
static int wait_timeout(pid_t pid, const struct mmf_prog *p, const struct mmf_exec_opts *o,
			const struct mmf_hang_board *board, struct mmf_exec_result *r,
			int *status)
{
	int pfd = syscall(SYS_pidfd_open, pid, 0);
	struct pollfd pf = { .fd = pfd, .events = POLLIN };
	uint64_t deadline = mmf_now_ns() + (uint64_t)o->timeout_ms * 1000000;
	struct mmf_hang_watch *w = mmf_xcalloc(MMF_MAX_STMTS + 1, sizeof(*w));
	struct rusage ru = { 0 };
	int timed_out = 0;

	while (pfd >= 0) {
		uint64_t now = mmf_now_ns();
		long left = now >= deadline ? 0 : (long)((deadline - now) / 1000000);
		struct strbuf sb;
		int rc;

		rc = poll(&pf, 1, board ? MIN(left, HANG_TICK_MS) : left);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc != 0)
			break;
		now = mmf_now_ns();
		timed_out = now >= deadline;
		if (!board && !timed_out)
			continue;
		mmf_sb_init(&sb);
		if (board && mmf_hang_scan(board, w, p, now, timed_out, o->slowdown, &sb)) {
			char *nl = strchr(sb.buf, '\n');
			char *title = mmf_xasprintf("%.*s", (int)(nl - sb.buf), sb.buf);

			add_report(r, title, sb.buf);
			free(title);
			timed_out = 1;
		}
		mmf_sb_free(&sb);
		if (timed_out)
			break;
	}
	if (pfd >= 0)
		close(pfd);
	free(w);
	/* Kill the whole group: fork blocks and anything they left. */
	kill(-pid, SIGKILL);
	while (wait4(pid, status, 0, &ru) < 0 && errno == EINTR)
		;
	r->user_ns = ru.ru_utime.tv_sec * 1000000000ull + ru.ru_utime.tv_usec * 1000ull;
	r->sys_ns = ru.ru_stime.tv_sec * 1000000000ull + ru.ru_stime.tv_usec * 1000ull;
	while (waitpid(-pid, NULL, WNOHANG) > 0)
		;
	return timed_out;
}

/* System-wide counters once every process of the program is gone. */
static void check_accounting(struct mmf_exec_result *r, struct mmf_acct_sys *before)
{
	struct strbuf sb;
	char *t;

	mmf_sb_init(&sb);
	mmf_acct_sys_check(before, &sb);
	for (t = sb.buf; t && *t;) {
		char *nl = strchr(t, '\n'), *next = strstr(t + 1, "\nACCOUNTING: ");
		char *title = mmf_xasprintf("%.*s", (int)(nl ? nl - t : (long)strlen(t)), t);
		char *body;

		next = next ? next + 1 : t + strlen(t);
		body = mmf_xasprintf("%.*s", (int)(next - t), t);
		add_report(r, title, body);
		free(title);
		free(body);
		t = next;
	}
	mmf_sb_free(&sb);
}

int mmf_exec_prog(const struct mmf_prog *p, const struct mmf_exec_opts *o,
		  struct mmf_exec_result *r)
{
	uint64_t start = mmf_now_ns();
	struct mmf_exec_saved saved;
	struct mmf_hang_board *board;
	/* the counters at the start of the next program (see mmf_acct_sys_base) */
	static struct mmf_acct_sys acct;
	uint64_t vm0[MMF_NR_VMSTAT], vm1[MMF_NR_VMSTAT];
	uint64_t t[4] = { 0 }, forked, waited, child0;
	int outfd, status = 0;
	size_t len;
	char *buf;
	pid_t pid, parent;

	memset(r, 0, sizeof(*r));
	if (mmf_exec_init())
		return -errno;
	if (o->exec_log_fd >= 0) {
		struct strbuf sb;

		mmf_sb_init(&sb);
		mmf_sb_puts(&sb, MMF_PROG_EXEC_MARK "\n");
		mmf_prog_print(p, &sb);
		mmf_sb_puts(&sb, "\n");
		mmf_write_all(o->exec_log_fd, sb.buf, sb.len);
		mmf_sb_free(&sb);
	}
	outfd = memfd_create("mmfuzz-out", MFD_CLOEXEC);
	if (outfd < 0 || fcntl(outfd, F_SETFL, O_APPEND))
		return -errno;
	memset(&saved, 0, sizeof(saved));
	mmf_cg_save(p, o, &saved);
	mmf_knobs_save(p, o, &saved);
	mmf_acct_sys_base(&acct);
	board = mmf_hang_board_new();
	if (o->cover)
		mmf_cover_reset(o->cover);
	if (o->cover && o->cover->state)
		mmf_vmstat_read(vm0);
	parent = getpid();
	forked = mmf_now_ns();
	pid = fork();
	if (pid < 0) {
		close(outfd);
		mmf_hang_board_free(board);
		return -errno;
	}
	if (pid == 0) {
		mmf_hang_board = board;
		setpgid(0, 0);
		mmf_die_with_parent(parent, SIGKILL, 0);
		child0 = mmf_now_ns();
		if (o->cgroup_procs) {
			int fd = open(o->cgroup_procs, O_WRONLY | O_CLOEXEC);

			if (fd >= 0) {
				dprintf(fd, "%d\n", getpid());
				close(fd);
			}
		}
		mmf_exec_interp(p, o, outfd, child0);
		_exit(0);
	}
	setpgid(pid, pid);
	if (wait_timeout(pid, p, o, board, r, &status))
		r->status = MMF_RUN_TIMEOUT;
	else if (WIFSIGNALED(status))
		r->status = WTERMSIG(status) == SIGKILL ? MMF_RUN_KILLED : MMF_RUN_CRASHED;
	else if (WEXITSTATUS(status))
		r->status = MMF_RUN_CRASHED;
	waited = mmf_now_ns();
	mmf_hang_board_free(board);
	r->sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	mmf_cg_restore(o, &saved);
	mmf_knobs_restore(o, &saved);
	check_accounting(r, &acct);
	len = lseek(outfd, 0, SEEK_END);
	buf = mmf_xmalloc(len + 1);
	if (pread(outfd, buf, len, 0) == (ssize_t)len)
		parse_records(r, buf, len, t);
	if (o->cover && o->cover->state) {
		mmf_vmstat_read(vm1);
		mmf_feedback_vmstat(o->cover, vm0, vm1);
		for (int i = 0; i < r->nr_results; i++)
			mmf_feedback_result(o->cover, p->stmts[r->results[i].si].id,
					    r->results[i].res);
	}
	free(buf);
	close(outfd);
	if (o->kmsg)
		mmf_kmsg_poll(o->kmsg, kmsg_report, r);
	r->ns = mmf_now_ns() - start;
	if (t[0] >= forked && t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3] && t[3] <= waited) {
		const uint64_t at[MMF_NR_PHASES + 1] = { start, forked, t[1], t[2], t[3], waited,
							 start + r->ns };

		for (int i = 0; i < MMF_NR_PHASES; i++)
			r->phase_ns[i] = at[i + 1] - at[i];
	}
	return 0;
}

const char *mmf_run_status_name(enum mmf_run_status s)
{
	static const char *const names[] = {
		[MMF_RUN_OK] = "ok", [MMF_RUN_TIMEOUT] = "timeout",
		[MMF_RUN_KILLED] = "killed", [MMF_RUN_CRASHED] = "crashed",
	};

	return names[s];
}

const char *mmf_phase_name(enum mmf_phase ph)
{
	static const char *const names[] = {
		[MMF_PHASE_SETUP] = "setup", [MMF_PHASE_START] = "start",
		[MMF_PHASE_BODY] = "body", [MMF_PHASE_END] = "end",
		[MMF_PHASE_EXIT] = "exit", [MMF_PHASE_AFTER] = "after",
	};

	return names[ph];
}

void mmf_exec_result_free(struct mmf_exec_result *r)
{
	for (int i = 0; i < r->nr_reports; i++) {
		free(r->reports[i].title);
		free(r->reports[i].body);
	}
	free(r->reports);
	free(r->results);
	free(r->rounds);
	memset(r, 0, sizeof(*r));
}
