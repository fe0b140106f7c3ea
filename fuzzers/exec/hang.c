// SPDX-License-Identifier: GPL-2.0
/*
 * The hang oracle (see hang.h). Progress is what the scheduler and the I/O
 * accounting see of one task: run time and timeslices (schedstat), bytes
 * read and written (io), and faults (stat). A task asleep in the kernel
 * moves none of them; one working through swap entries or compacting moves
 * several. The bound is generous (a base plus a per-page time that covers
 * reading each page back from a slow disk under TCG): the stall is the
 * evidence, the bound only keeps a short wait (a fault waiting on a busy
 * disk) from counting.
 *
 * A call can also loop in the kernel: CPU time and timeslices move, but it
 * neither faults nor reads or writes anything (swapoff retrying for swap
 * entries nobody holds). Past its bound, such spinning for SPIN_MS is a
 * hang too.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "exec/hang.h"
#include "exec/interp.h"

#define BASE_MS		5000
#define PAGE_US		250	/* per page of work */
/*
 * No progress for this long: hung. Longer than memory.high's throttling
 * sleeps (MEMCG_MAX_HIGH_DELAY_JIFFIES, 2 s), which a program that lowered
 * memory.high may be in.
 */
#define STALL_MS	3000
#define SPIN_MS		4000	/* CPU time only, no faults or I/O: spinning */
#define STACK_TRIES	50
#define STACK_WAIT_US	2000

struct mmf_hang_board *mmf_hang_board;

struct mmf_hang_board *mmf_hang_board_new(void)
{
	void *b = mmap(NULL, sizeof(struct mmf_hang_board), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return b == MAP_FAILED ? NULL : b;
}

void mmf_hang_board_free(struct mmf_hang_board *b)
{
	if (b)
		munmap(b, sizeof(*b));
}

long mmf_hang_bound_ms(int64_t work, int slow)
{
	return (BASE_MS + (long)(MAX(work, 0) * PAGE_US / 1000)) * MAX(slow, 1);
}

/* Pages of swap in use: what a swapoff may have to bring back. */
static int64_t swap_used_pages(long psz)
{
	char *t = mmf_read_file("/proc/swaps", NULL), *line;
	int64_t kb = 0;

	for (line = t ? strchr(t, '\n') : NULL; line && line[1]; line = strchr(line + 1, '\n')) {
		long long size, used;

		if (sscanf(line + 1, "%*s %*s %lld %lld", &size, &used) == 2)
			kb += used;
	}
	free(t);
	return kb * 1024 / psz;
}

static int64_t work_of(const struct mmf_stmt *s, long psz)
{
	int idx, n;

	if (mmf_calls[s->id].flags & MMF_CALL_SWAPIN)
		return swap_used_pages(psz);
	if (mmf_stmt_range(s, &idx, &n))
		return n;
	return (mmf_calls[s->id].flags & MMF_CALL_GLOBAL) ? MMF_ARENA_PAGES : 0;
}

void mmf_hang_enter(int party, const struct mmf_prog *p, int si, long psz)
{
	struct mmf_hang_slot *sl;

	if (!mmf_hang_board)
		return;
	sl = &mmf_hang_board->slot[party + 1];
	sl->si = si;
	sl->work = work_of(&p->stmts[si], psz);
	sl->start_ns = mmf_now_ns();
	__atomic_store_n(&sl->tid, gettid(), __ATOMIC_RELEASE);
}

void mmf_hang_leave(int party)
{
	if (mmf_hang_board)
		__atomic_store_n(&mmf_hang_board->slot[party + 1].tid, 0, __ATOMIC_RELEASE);
}

static char *task_file(int tid, const char *name)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/task/%d/%s", tid, tid, name);
	return mmf_read_file(path, NULL);
}

/*
 * Sum of the counters that move while a task gets anything done; 0 if gone.
 * *work: the part that is not CPU time (I/O and faults).
 */
static uint64_t progress(int tid, char *state, uint64_t *work)
{
	char *sched = task_file(tid, "schedstat"), *io = task_file(tid, "io");
	char *st = task_file(tid, "stat"), *p;
	unsigned long long run = 0, slices = 0, v, minflt = 0, majflt = 0;
	uint64_t sig = 0;

	*state = '?';
	for (p = io; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (sscanf(p, "%*[a-z_]: %llu", &v) == 1)
			sig += v;
	/* After the ")" of comm: state, then fields 4..; minflt is 10, majflt 12. */
	p = st ? strrchr(st, ')') : NULL;
	if (p && sscanf(p + 2, "%c %*d %*d %*d %*d %*d %*u %llu %*u %llu", state, &minflt,
			&majflt) == 3)
		sig += minflt + majflt;
	*work = sig;
	if (sched && sscanf(sched, "%llu %*u %llu", &run, &slices) == 2)
		sig += run + slices;
	free(sched);
	free(io);
	free(st);
	return sig;
}

static void report(const struct mmf_hang_watch *w, const struct mmf_prog *p, uint64_t now,
		   int64_t work, int slow, char state, bool spinning, bool at_timeout,
		   struct strbuf *out)
{
	char *stack = task_file(w->tid, "stack"), *wchan = task_file(w->tid, "wchan");

	/* A task on a CPU shows no stack: catch a spinning one between two slices. */
	for (int i = 0; i < STACK_TRIES && (!stack || !*stack); i++) {
		free(stack);
		usleep(STACK_WAIT_US);
		stack = task_file(w->tid, "stack");
	}

	mmf_sb_puts(out, "HANG: ");
	mmf_stmt_title(&p->stmts[w->si], out);
	mmf_sb_printf(out, "\nstatement %d: ", w->si);
	mmf_stmt_print(&p->stmts[w->si], out);
	mmf_sb_printf(out, "\nin the call for %llu ms (bound %ld ms for %lld pages of work),"
		  " %s for %llu ms%s\n",
		  (unsigned long long)(now - w->start_ns) / 1000000, mmf_hang_bound_ms(work, slow),
		  (long long)work, spinning ? "spinning (CPU time, no faults, no I/O)" : "no progress",
		  (unsigned long long)(now - (spinning ? w->done_since_ns : w->since_ns)) / 1000000,
		  at_timeout ? ", at the program's timeout" : "");
	mmf_sb_printf(out, "task %d, state %c, wchan %s\nkernel stack:\n%s", w->tid, state,
		  wchan && *wchan ? wchan : "?", stack && *stack ? stack : "(unreadable)\n");
	free(stack);
	free(wchan);
}

/*
 * A call that waits for another that works (a fault behind a long swapoff's
 * lock) is not hung: report only when no call of the program moved lately.
 */
int mmf_hang_scan(const struct mmf_hang_board *b, struct mmf_hang_watch *w,
		  const struct mmf_prog *p, uint64_t now, bool at_timeout, int slow,
		  struct strbuf *out)
{
	int hung = -1, moving = 0;
	int64_t hung_work = 0;
	char hung_state = '?';
	bool hung_spinning = false;

	for (int i = 0; i < (int)ARRAY_SIZE(b->slot); i++) {
		const struct mmf_hang_slot *sl = &b->slot[i];
		struct mmf_hang_watch *wi = &w[i];
		int tid = __atomic_load_n(&sl->tid, __ATOMIC_ACQUIRE);
		uint64_t sig, done, stall, spin, since;
		int64_t work = sl->work;
		bool past, spinning;
		char state;

		if (!tid || sl->si < 0 || sl->si >= p->nr || p->stmts[sl->si].id < 0) {
			wi->tid = 0;
			continue;
		}
		sig = progress(tid, &state, &done);
		if (wi->tid != tid || wi->si != sl->si || wi->start_ns != sl->start_ns) {
			/* A new call since the last sample: start watching it. */
			*wi = (struct mmf_hang_watch){ tid, sl->si, sl->start_ns, sig, now, done, now };
			moving++;
			continue;
		}
		if (sig != wi->sig || !sig) {
			wi->sig = sig;
			wi->since_ns = now;
		}
		if (done != wi->done || !sig) {
			wi->done = done;
			wi->done_since_ns = now;
		}
		stall = (now - wi->since_ns) / 1000000;
		spin = (now - wi->done_since_ns) / 1000000;
		past = (now - wi->start_ns) / 1000000 >= (uint64_t)mmf_hang_bound_ms(work, slow);
		/* Spinning: still on the CPU (else it is a stall), nothing else for long. */
		spinning = stall < STALL_MS * (uint64_t)MAX(slow, 1) &&
			   spin >= SPIN_MS * (uint64_t)MAX(slow, 1) && (past || at_timeout);
		if (!spinning && stall < STALL_MS * (uint64_t)MAX(slow, 1)) {
			moving++;
			continue;
		}
		if (!spinning && !at_timeout && !past)
			continue;
		since = spinning ? wi->done_since_ns : wi->since_ns;
		if (hung < 0 || since < (hung_spinning ? w[hung].done_since_ns : w[hung].since_ns)) {
			hung = i;
			hung_work = work;
			hung_state = state;
			hung_spinning = spinning;
		}
	}
	if (hung < 0 || moving)
		return 0;
	report(&w[hung], p, now, hung_work, slow, hung_state, hung_spinning, at_timeout, out);
	return 1;
}
