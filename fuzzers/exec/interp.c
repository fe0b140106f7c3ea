// SPDX-License-Identifier: GPL-2.0
/*
 * The interpreter, run in the program's own process: the main line, thread
 * blocks as pthreads, fork blocks as children that live until the join, and
 * after every call the oracles. Records go to outfd, one write(2) each, so
 * that lines from children and threads never interleave.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec/calls.h"
#include "exec/hang.h"
#include "exec/interp.h"
#include "exec/feedback.h"
#include "exec/kcov.h"
#include "exec/pmcheck.h"
#include "model/uapi.h"
#include "oracle/accounting.h"
#include "oracle/results.h"
#include "oracle/pagemap.h"
#include "runtime/access.h"

/* Where a fault in a guarded page access jumps to, per thread. */
struct fault_jump {
	sigjmp_buf *buf;
};

static __thread struct fault_jump fault;

static void on_fault(int sig, siginfo_t *info, void *uc)
{
	if (fault.buf)
		siglongjmp(*fault.buf, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* A guarded access's pages, for the runtime's callback. */
struct guarded {
	struct mmf_interp *in;
	int idx, si;
	void (*fn)(struct mmf_interp *in, int idx, int si);
};

static void guarded_page(int i, void *arg)
{
	const struct guarded *g = arg;

	g->fn(g->in, g->idx + i, g->si);
}

long mmf_guarded_pages(struct mmf_interp *in, int idx, int n, int si,
		       void (*fn)(struct mmf_interp *in, int idx, int si))
{
	struct guarded g = { in, idx, si, fn };

	return rt_guarded(&fault.buf, n, guarded_page, &g);
}

void mmf_page_fill(struct mmf_interp *in, int idx, int si)
{
	rt_fill_page(mmf_page_addr(in, idx), in->psz,
		     mmf_shadow_word(in->sh, in->p->stmts[si].args[3], idx));
}

static void emit(struct mmf_interp *in, struct strbuf *sb)
{
	mmf_write_all(in->outfd, sb->buf, sb->len);
	mmf_sb_free(sb);
}

void mmf_interp_report(struct mmf_interp *in, const char *text, size_t len)
{
	struct strbuf sb, race;

	/* A finding in a racing round says which: its delay is the one to try. */
	mmf_sb_init(&race);
	mmf_race_describe(in, &race);
	mmf_sb_init(&sb);
	mmf_sb_printf(&sb, "C %zu\n", len + race.len);
	mmf_sb_add(&sb, text, len);
	if (race.len)
		mmf_sb_add(&sb, race.buf, race.len);
	emit(in, &sb);
	mmf_sb_free(&race);
}

/* Opened on first use: a program without madvise never needs it. */
static int pagemap_fd(struct mmf_interp *in)
{
	if (in->pagemap < 0)
		in->pagemap = mmf_pagemap_open();
	return in->pagemap;
}

/* /proc/kpageflags, for the state feedback: root only, -1 without it. */
static int kpageflags_fd(struct mmf_interp *in)
{
	if (in->kpageflags == -2)
		in->kpageflags = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	return in->kpageflags;
}

/* Whether the map takes state feedback: a ranged call's pages before and after. */
static bool state_feedback(struct mmf_interp *in)
{
	return in->o->cover && in->o->cover->state;
}

/* What went wrong, for the title: a short class of the observed page. */
static const char *corruption_class(struct mmf_interp *in, int idx, const struct mmf_vset *vs,
				    uint64_t first, bool uniform)
{
	if (uniform && !first)
		return "zeroed";
	for (int i = 0; i < vs->n; i++)
		if (vs->v[i] == first)
			return "torn";
	if (uniform && (first >> 32 & 0xffffff) == in->sh->nonce)
		return (uint32_t)first == (uint32_t)(idx + 1) ? "stale" : "misplaced";
	return uniform ? "foreign" : "garbage";
}

static void report_corruption(struct mmf_interp *in, int idx, int si, const struct mmf_vset *vs,
			      const uint64_t *pg, long words, long bad, long nbad)
{
	const struct mmf_shadow_page *sp = &in->sh->pages[idx];
	uint64_t ent = mmf_pagemap_entry(pagemap_fd(in), pg, in->psz);
	struct strbuf sb;

	mmf_sb_init(&sb);
	/*
	 * What went wrong and to which kind of page, not the call that last
	 * touched it: one bug shows after MADV_FREE in one run and after
	 * MADV_PAGEOUT in the next. The calls are in the body.
	 */
	mmf_sb_printf(&sb, "DATA CORRUPTION: %s %s page\n",
		  corruption_class(in, idx, vs, pg[0], nbad == 0 || nbad == words),
		  mmf_shadow_backing_name(in->sh, idx));
	mmf_sb_printf(&sb, "page: m%d+%d (arena page %d) at %p, read by statement %d\n",
		  idx / MMF_SLOT_PAGES, idx % MMF_SLOT_PAGES, idx, (void *)pg, si);
	mmf_sb_printf(&sb, "pagemap: present=%d swapped=%d exclusive=%d\n",
		  !!(ent & MMF_PM_PRESENT), !!(ent & MMF_PM_SWAP), !!(ent & MMF_PM_EXCLUSIVE));
	mmf_sb_puts(&sb, "expected:");
	for (int i = 0; i < vs->n; i++)
		mmf_sb_printf(&sb, " %s0x%016llx", i ? "or " : "", (unsigned long long)vs->v[i]);
	mmf_sb_printf(&sb, "\nobserved: 0x%016llx at byte 0, 0x%016llx at byte %ld; %ld of %ld words"
		  " differ from the first\n", (unsigned long long)pg[0],
		  (unsigned long long)pg[bad], bad * 8, nbad, words);
	mmf_sb_puts(&sb, "calls that touched it, newest first:\n");
	for (int h = 0; h < MMF_HIST && mmf_page_hist(sp, h) >= 0; h++) {
		mmf_sb_printf(&sb, "  %d: ", mmf_page_hist(sp, h));
		mmf_stmt_print(&in->p->stmts[mmf_page_hist(sp, h)], &sb);
		mmf_sb_puts(&sb, "\n");
	}
	mmf_interp_report(in, sb.buf, sb.len);
	mmf_sb_free(&sb);
}

void mmf_page_verify(struct mmf_interp *in, int idx, int si)
{
	const uint64_t *pg = (const uint64_t *)mmf_page_addr(in, idx);
	long words = in->psz / 8, bad = 0, nbad = 0;
	struct mmf_vset vs;
	uint64_t first;
	bool known, ok = false;

	mmf_model_lock(in);
	known = mmf_shadow_expect(in->sh, idx, &vs);
	mmf_model_unlock(in);
	/* Fault the page in even when the model cannot tell its content. */
	first = *(volatile const uint64_t *)pg;
	if (!known)
		return;
	for (int i = 0; i < vs.n; i++)
		ok |= vs.v[i] == first;
	/* Count first (vectorizes), locate only when something is wrong. */
	for (long i = 1; i < words; i++)
		nbad += pg[i] != first;
	if (ok && !nbad)
		return;
	for (bad = 1; nbad && pg[bad] == first; bad++)
		;
	report_corruption(in, idx, si, &vs, pg, words, bad, nbad);
}

/*
 * "R si party res swapped call_ns check_ns [hex]": a call's record, with
 * the states of its range's first pages after it when traced.
 */
static void record_call(struct mmf_interp *in, int si, int party, long res, int swapped,
			uint64_t call_ns, uint64_t check_ns, const uint8_t *st, int nst)
{
	char buf[128 + 2 * MMF_STATE_PAGES];
	int n = snprintf(buf, sizeof(buf), "R %d %d %ld %d %llu %llu", si, party, res, swapped,
			 (unsigned long long)call_ns, (unsigned long long)check_ns);

	if (nst) {
		buf[n++] = ' ';
		mmf_hex_put(buf + n, st, nst);
		n += 2 * nst;
	}
	buf[n++] = '\n';
	mmf_write_all(in->outfd, buf, n);
}

static void record(struct mmf_interp *in, int si, int party, long res, int swapped,
		   uint64_t call_ns, uint64_t check_ns)
{
	record_call(in, si, party, res, swapped, call_ns, check_ns, NULL, 0);
}

/* Whether the statement can change what is mlocked. */
static bool changes_locks(const struct mmf_stmt *s)
{
	const struct mmf_call_desc *d = &mmf_calls[s->id];

	if (d->flags & MMF_CALL_LOCKS)
		return true;
	/* mmap with MAP_LOCKED locks what it maps. */
	for (int i = 0; i < d->nr_args; i++)
		if (d->args[i].set == &mmf_mmap_set && (s->args[i] & MMF_MAP_LOCKED))
			return true;
	return false;
}

/*
 * VmLck before the program's first call that can change it, read then
 * rather than at the start: a /proc read per program costs.
 */
static void note_vmlck_base(struct mmf_interp *in, const struct mmf_stmt *s)
{
	if (in->vmlck_base != MMF_VMLCK_UNREAD)
		return;
	if (!changes_locks(s))
		return;
	/* Another party may hold locks of its own now: no base to trust. */
	if (in->inflight || in->nr_threads)
		in->vmlck_base = -1;
	else
		in->vmlck_base = mmf_results_vmlck_kb();
}

/* Change a page behind the model's back, through /proc/self/mem: the test
 * that proves the data oracle fires. The page is idx, or with idx < 0 the
 * first page the model predicts.
 */
static void corrupt_one_page(struct mmf_interp *in, int idx)
{
	uint64_t junk[512];
	struct mmf_vset vs;
	int fd = open("/proc/self/mem", O_RDWR | O_CLOEXEC);

	for (size_t i = 0; i < ARRAY_SIZE(junk); i++)
		junk[i] = 0x5a5a5a5a00000000ull | i;
	for (idx = MAX(idx, 0); fd >= 0 && idx < MMF_ARENA_PAGES; idx++) {
		if (!mmf_shadow_expect(in->sh, idx, &vs))
			continue;
		if (pwrite(fd, junk, MIN((long)sizeof(junk), in->psz),
			   (uintptr_t)mmf_page_addr(in, idx)) > 0)
			break;
	}
	if (fd >= 0)
		close(fd);
}

static void provoke_lkdtm(const char *type)
{
	int fd = open("/sys/kernel/debug/provoke-crash/DIRECT", O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, type, strlen(type)) < 0)
		mmf_warnx_("test hook: LKDTM %s: %s", type, strerror(errno));
	if (fd >= 0)
		close(fd);
}

static void run_stmt(struct mmf_interp *in, int si, int party)
{
	const struct mmf_stmt *s = &in->p->stmts[si];
	const mmf_run_fn run = mmf_exec_calls[s->id];
	unsigned int flags = mmf_calls[s->id].flags;
	const char *why = NULL;
	int experr = 0, swapped = -1, idx, n, nst = 0;
	bool ranged, feedback;
	uint8_t before[MMF_STATE_PAGES], after[MMF_STATE_PAGES];
	uint64_t t0, t1, t2;
	struct strbuf sb;
	long res;

	/* Only calls have a run function: a block statement here is out of
	 * place, as mmf_prog_validate() says; it fails without running.
	 */
	if (!run) {
		record(in, si, party, -EINVAL, -1, 0, 0);
		return;
	}
	t0 = mmf_now_ns();
	mmf_sb_init(&sb);
	note_vmlck_base(in, s);
	if (!in->inflight) {
		mmf_model_lock(in);
		experr = mmf_results_errno(in->sh, s, &why);
		mmf_model_unlock(in);
	}
	mmf_hang_enter(party, in->p, si, in->psz);
	/* Its pages' states: before and after for the feedback, after for the trace. */
	ranged = mmf_stmt_range(s, &idx, &n);
	feedback = ranged && state_feedback(in);
	if (feedback)
		nst = mmf_page_states(pagemap_fd(in), kpageflags_fd(in), mmf_page_addr(in, idx),
				      in->psz, n, before);
	mmf_kcov_call_begin(in->o->cover);
	t1 = mmf_now_ns();
	res = run(in, s, si);
	t2 = mmf_now_ns();
	mmf_kcov_call_end(in->o->cover);
	if (feedback || (ranged && in->o->trace))
		nst = mmf_page_states(pagemap_fd(in), kpageflags_fd(in), mmf_page_addr(in, idx),
				      in->psz, n, after);
	if (feedback)
		mmf_feedback_states(in->o->cover, s->id, before, after, nst);
	mmf_model_lock(in);
	mmf_shadow_apply(in->sh, s, si, res);
	if (!in->inflight && res >= 0 && (flags & MMF_CALL_LOCKS_RANGE))
		mmf_results_check_locked(in->sh, s, in->arena, in->vmlck_base, &sb);
	mmf_model_unlock(in);
	if (experr && res != -experr) {
		char r[32];

		mmf_exec_format_res(res, r, sizeof(r));
		mmf_sb_printf(&sb, "ACCOUNTING: %s did not fail with %s\n%s returned %s"
			  " (statement %d)\n", why, strerrorname_np(experr),
			  mmf_calls[s->id].name, r, si);
	}
	if (sb.len)
		mmf_interp_report(in, sb.buf, sb.len);
	mmf_sb_free(&sb);
	if ((flags & MMF_CALL_SWAPCHECK) && mmf_stmt_range(s, &idx, &n))
		swapped = mmf_pagemap_swapped(pagemap_fd(in), mmf_page_addr(in, idx), in->psz, n);
	/* The checks and hooks of a store: its tag is arg 3. */
	if ((flags & MMF_CALL_STORES) && !in->inflight && !in->nr_threads)
		mmf_pmcheck_written(in, pagemap_fd(in), in->pm_checks, si, res);
	record_call(in, si, party, res, swapped, t2 - t1, mmf_now_ns() - t0 - (t2 - t1), after,
		    in->o->trace ? nst : 0);
	if (in->o->corrupt_after == si)
		corrupt_one_page(in, -1);
	if (in->o->corrupt_tag && (flags & MMF_CALL_STORES) && res > 0 &&
	    s->args[3] == (uint64_t)in->o->corrupt_tag && mmf_stmt_range(s, &idx, &n))
		corrupt_one_page(in, idx);
	if (in->o->lkdtm_tag && (flags & MMF_CALL_STORES) && res > 0 &&
	    s->args[3] == (uint64_t)in->o->lkdtm_tag)
		provoke_lkdtm(in->o->lkdtm_type);
	/* Still inside the statement, as a call that never returns is. */
	while (in->o->hang_after == si) {
		if (!in->o->hang_spins)
			pause();
		else
			mmf_now_ns();	/* the vDSO: CPU time only, and a loop kept */
	}
	mmf_hang_leave(party);
}

static void run_block(struct mmf_interp *in, int from, int to, int party)
{
	for (int i = from; i < to; i++)
		if (in->p->stmts[i].id != MMF_COMMENT)
			run_stmt(in, i, party);
}

struct thread_arg {
	struct mmf_interp *in;
	int bi;
	int party;		/* in a racing group, else 0 */
};

static void *thread_main(void *arg)
{
	struct thread_arg *ta = arg;

	if (ta->party)
		mmf_race_meet(ta->in, ta->party);
	run_block(ta->in, ta->bi + 1, mmf_prog_block_end(ta->in->p, ta->bi), ta->bi);
	mmf_kcov_task_exit();
	free(ta);
	return NULL;
}

static long start_thread(struct mmf_interp *in, int bi, int party)
{
	struct thread_arg *ta = mmf_xmalloc(sizeof(*ta));
	int e;

	ta->in = in;
	ta->bi = bi;
	ta->party = party;
	/* Counted before it runs, so that it always takes the model lock. */
	in->nr_threads++;
	e = pthread_create(&in->threads[in->nr_threads - 1], NULL, thread_main, ta);
	if (e) {
		in->nr_threads--;
		free(ta);
		return -e;
	}
	return 0;
}

static long start_child(struct mmf_interp *in, int bi, int party)
{
	int c = in->p->stmts[bi].args[0];
	pid_t pid;
	char ch;

	if (in->join_pipe[0] < 0 && pipe2(in->join_pipe, O_CLOEXEC))
		return -errno;
	pthread_mutex_lock(&in->lock);
	pid = fork();
	if (pid == 0) {
		mmf_kcov_forked();
		pthread_mutex_init(&in->lock, NULL);
		close(in->join_pipe[1]);
		rt_uffd_forked(&in->uffd);
		in->nr_threads = 0;
		in->inflight = 0;
		mmf_shadow_fork_child(in->sh);
		mmf_shadow_child_of(in->sh, in->p, in->group_first, bi);
		in->vmlck_base = in->vmlck_base == MMF_VMLCK_UNREAD ? MMF_VMLCK_UNREAD : mmf_results_vmlck_kb();
		/* The inherited descriptor would show the parent's pages. */
		if (in->pagemap >= 0)
			close(in->pagemap);
		in->pagemap = -1;
		if (party)
			mmf_race_meet(in, party);
		run_block(in, bi + 1, mmf_prog_block_end(in->p, bi), bi);
		/* Live until the join: its exit frees its swap entries then. */
		while (read(in->join_pipe[0], &ch, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	if (pid > 0)
		mmf_shadow_forked(in->sh, in->p, in->group_first, bi);
	pthread_mutex_unlock(&in->lock);
	if (pid < 0)
		return -errno;
	if (in->pidfds[c] >= 0)
		close(in->pidfds[c]);
	in->kids[c] = pid;
	in->pidfds[c] = syscall(SYS_pidfd_open, pid, 0);
	return 0;
}

static void join_all(struct mmf_interp *in)
{
	for (int t = 0; t < in->nr_threads; t++)
		pthread_join(in->threads[t], NULL);
	in->nr_threads = 0;
	if (in->join_pipe[0] >= 0) {
		close(in->join_pipe[1]);
		for (int c = 0; c < MMF_NR_CHILDREN; c++) {
			if (in->kids[c] > 0)
				waitpid(in->kids[c], NULL, 0);
			in->kids[c] = 0;
			if (in->pidfds[c] >= 0)
				close(in->pidfds[c]);
			in->pidfds[c] = -1;
		}
		close(in->join_pipe[0]);
		in->join_pipe[0] = in->join_pipe[1] = -1;
	}
	pthread_mutex_lock(&in->lock);
	mmf_shadow_group_end(in->sh);
	pthread_mutex_unlock(&in->lock);
	in->group_first = -1;
	in->inflight = 0;
}

/* A block's party in the racing group in progress, 0 outside one. */
static int race_party(struct mmf_interp *in, int bi)
{
	const struct mmf_race_state *rc = &in->race;

	if (rc->race < 0 || bi < rc->g.first || bi > rc->g.last)
		return 0;
	return ++in->race.opened;
}

static void run_main(struct mmf_interp *in)
{
	const struct mmf_prog *p = in->p;

	for (int i = 0; i <= p->nr; i++) {
		const struct mmf_stmt *s = &p->stmts[i];
		uint64_t t0;
		long res;
		int party;

		/* The end of the program joins a racing group's round too. */
		if (i == p->nr) {
			if (in->race.race < 0 || in->race.g.join != p->nr)
				break;
			join_all(in);
			if (mmf_race_round_end(in))
				i = in->race.g.first - 1;
			continue;
		}
		if (s->id == MMF_COMMENT)
			continue;
		switch (mmf_calls[s->id].block) {
		case MMF_BLOCK_RACE:
			if (!in->o->no_race)
				mmf_race_begin(in, i);
			record(in, i, -1, 0, -1, 0, 0);
			break;
		case MMF_BLOCK_FORK:
		case MMF_BLOCK_THREAD:
			if (in->group_first < 0) {
				in->group_first = i;
				pthread_mutex_lock(&in->lock);
				mmf_shadow_group_begin(in->sh, p, i, mmf_prog_next_join(p, i));
				pthread_mutex_unlock(&in->lock);
			}
			in->inflight++;
			/* fork's copy of the page tables is the program's coverage too. */
			mmf_kcov_call_begin(in->o->cover);
			party = race_party(in, i);
			t0 = mmf_now_ns();
			res = s->id == MMF_FORK ? start_child(in, i, party) :
				start_thread(in, i, party);
			t0 = mmf_now_ns() - t0;
			mmf_kcov_call_end(in->o->cover);
			record(in, i, -1, res, -1, t0, 0);
			in->race.started += party && !res;
			if (party && i == in->race.g.last)
				mmf_race_meet(in, 0);
			i = mmf_prog_block_end(p, i);
			break;
		case MMF_BLOCK_JOIN:
			t0 = mmf_now_ns();
			join_all(in);
			record(in, i, -1, 0, -1, mmf_now_ns() - t0, 0);
			if (in->race.race >= 0 && i == in->race.g.join && mmf_race_round_end(in))
				i = in->race.g.first - 1;
			break;
		default:
			run_stmt(in, i, -1);
		}
	}
	join_all(in);
}

/* Each report of sb (they start with a title line "ACCOUNTING: ") apart. */
static void emit_reports(struct mmf_interp *in, const char *text)
{
	while (text && *text) {
		const char *next = strstr(text + 1, "\nACCOUNTING: ");

		next = next ? next + 1 : text + strlen(text);
		mmf_interp_report(in, text, next - text);
		text = next;
	}
}

/* The counters of this process at the end, everything joined, all mapped. */
static void check_accounting(struct mmf_interp *in)
{
	struct mmf_acct_proc ap;
	struct strbuf sb;

	mmf_acct_proc_read(&ap);
	if (in->o->trace) {
		char buf[128];
		int n = snprintf(buf, sizeof(buf), "A %ld %ld %ld %ld\n", ap.rss_anon, ap.vm_swap,
				 ap.vm_lck, ap.rss_shmem);

		mmf_write_all(in->outfd, buf, n);
	}
	mmf_sb_init(&sb);
	if (mmf_acct_proc_compare(&ap, in->sh, in->psz, sysconf(_SC_NPROCESSORS_ONLN),
				  in->vmlck_base, &sb))
		emit_reports(in, sb.buf);
	mmf_sb_free(&sb);
}

void mmf_exec_interp(const struct mmf_prog *p, const struct mmf_exec_opts *o, int outfd,
		     uint64_t start_ns)
{
	struct sigaction sa = { .sa_sigaction = on_fault, .sa_flags = SA_SIGINFO | SA_NODEFER };
	struct mmf_interp in = {
		.p = p, .o = o, .outfd = outfd, .arena = &mmf_arena, .psz = mmf_psz,
		.join_pipe = { -1, -1 }, .group_first = -1, .race = { .race = -1 },
	};
	uint64_t first, last;
	struct strbuf sb;

	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	pthread_mutex_init(&in.lock, NULL);
	for (int f = 0; f < MMF_NR_FILES; f++)
		in.files[f] = -1;
	for (int c = 0; c < MMF_NR_CHILDREN; c++)
		in.pidfds[c] = -1;
	in.sh = mmf_shadow_new((uint32_t)getpid() * 2654435761u ^ (uint32_t)mmf_now_ns());
	in.pagemap = -1;
	in.kpageflags = -2;
	in.vmlck_base = MMF_VMLCK_UNREAD;
	in.pm_checks = mmf_pmcheck_policy(p);
	first = mmf_now_ns();
	run_main(&in);
	last = mmf_now_ns();
	rt_uffd_close(&in.uffd);
	check_accounting(&in);
	for (int f = 0; f < MMF_NR_FILES; f++)
		if (in.files[f] >= 0)
			close(in.files[f]);
	if (in.pagemap >= 0)
		close(in.pagemap);
	if (in.kpageflags >= 0)
		close(in.kpageflags);
	mmf_shadow_delete(in.sh);
	if (in.race.sync)
		munmap(in.race.sync, sizeof(*in.race.sync));
	pthread_mutex_destroy(&in.lock);
	mmf_sb_init(&sb);
	mmf_sb_printf(&sb, "T %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", start_ns, first,
		      last, mmf_now_ns());
	emit(&in, &sb);
}

void mmf_exec_format_res(int64_t res, char *buf, size_t n)
{
	const char *name = res < 0 ? strerrorname_np(-res) : NULL;

	if (res >= 0)
		snprintf(buf, n, "%lld", (long long)res);
	else if (name)
		snprintf(buf, n, "-1 %s", name);
	else
		snprintf(buf, n, "-1 errno %lld", (long long)-res);
}
