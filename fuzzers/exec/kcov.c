// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <linux/kcov.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "exec/kcov.h"

#define KCOV_PATH	"/sys/kernel/debug/kcov"
/* Words of one task's trace: a call's PCs beyond this are lost (counted). */
#define TRACE_WORDS	(1 << 18)
/*
 * A whole task's trace is harvested every this much of its CPU time: a
 * CPU runs at most some tens of millions of blocks a second, and a trace
 * holds TRACE_WORDS.
 */
#define HARVEST_NS	1000000

struct task_trace {
	int fd;			/* -1: not opened yet; -2: KCOV unusable here */
	unsigned long *area;
};

static __thread struct task_trace trace = { .fd = -1 };

bool mmf_kcov_available(void)
{
	int fd = open(KCOV_PATH, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

struct mmf_cover *mmf_cover_new(const struct mmf_focus *focus)
{
	struct mmf_cover *c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (c == MAP_FAILED)
		return NULL;
	c->focus = focus;
	return c;
}

void mmf_cover_reset(struct mmf_cover *c)
{
	const struct mmf_focus *focus = c->focus;
	bool state = c->state;

	memset(c, 0, sizeof(*c));
	c->focus = focus;
	c->state = state;
}

void mmf_cover_free(struct mmf_cover *c)
{
	if (c)
		munmap(c, sizeof(*c));
}

static bool task_open(void)
{
	int fd;

	if (trace.fd >= 0)
		return true;
	if (trace.fd == -2)
		return false;
	fd = open(KCOV_PATH, O_RDWR | O_CLOEXEC);
	if (fd >= 0 && !ioctl(fd, KCOV_INIT_TRACE, TRACE_WORDS)) {
		trace.area = mmap(NULL, TRACE_WORDS * sizeof(unsigned long),
				  PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (trace.area != MAP_FAILED && !ioctl(fd, KCOV_ENABLE, KCOV_TRACE_PC)) {
			trace.fd = fd;
			return true;
		}
		if (trace.area != MAP_FAILED)
			munmap(trace.area, TRACE_WORDS * sizeof(unsigned long));
	}
	if (fd >= 0)
		close(fd);
	trace.area = NULL;
	trace.fd = -2;
	return false;
}

void mmf_kcov_call_begin(struct mmf_cover *c)
{
	if (c && task_open())
		__atomic_store_n(&trace.area[0], 0, __ATOMIC_RELAXED);
}

static uint32_t pc_hash(uint64_t pc)
{
	pc ^= pc >> 33;
	pc *= 0xff51afd7ed558ccdull;
	return (uint32_t)(pc ^ (pc >> 29));
}

/* Into the set of distinct PCs, shared by the tasks: a CAS per new slot. */
static void add_pc(struct mmf_cover *c, uint64_t pc)
{
	uint32_t i = pc_hash(pc) & (MMF_COVER_PCS - 1);

	for (int probe = 0; probe < 64; probe++, i = (i + 1) & (MMF_COVER_PCS - 1)) {
		uint64_t old = __atomic_load_n(&c->pcs[i], __ATOMIC_RELAXED);

		if (old == pc)
			return;
		if (!old) {
			if (__atomic_compare_exchange_n(&c->pcs[i], &old, pc, false,
							__ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
				__atomic_add_fetch(&c->nr_pcs, 1, __ATOMIC_RELAXED);
				return;
			}
			if (old == pc)
				return;
		}
	}
	__atomic_add_fetch(&c->lost, 1, __ATOMIC_RELAXED);
}

void mmf_kcov_call_end(struct mmf_cover *c)
{
	uint32_t prev = 0;
	unsigned long n;

	if (!c || trace.fd < 0)
		return;
	n = __atomic_load_n(&trace.area[0], __ATOMIC_RELAXED);
	if (n >= TRACE_WORDS - 1) {
		__atomic_add_fetch(&c->lost, 1, __ATOMIC_RELAXED);
		n = TRACE_WORDS - 1;
	}
	for (unsigned long i = 1; i <= n; i++) {
		uint64_t pc = trace.area[i];
		uint32_t cur;

		if (c->focus && !mmf_focus_has(c->focus, pc))
			continue;
		/* AFL's edge: this block and the one before it in the focus. */
		cur = pc_hash(pc) & (MMF_COVER_EDGES - 1);
		if (c->edges[cur ^ prev] != 0xff)
			c->edges[cur ^ prev]++;
		prev = cur >> 1;
		add_pc(c, pc);
	}
	__atomic_store_n(&trace.area[0], 0, __ATOMIC_RELAXED);
}

void mmf_kcov_forked(void)
{
	/* The descriptor traces the parent: the child opens its own. */
	if (trace.fd >= 0) {
		munmap(trace.area, TRACE_WORDS * sizeof(unsigned long));
		close(trace.fd);
	}
	trace.fd = -1;
	trace.area = NULL;
}

void mmf_kcov_task_exit(void)
{
	if (trace.fd >= 0) {
		ioctl(trace.fd, KCOV_DISABLE, 0);
		munmap(trace.area, TRACE_WORDS * sizeof(unsigned long));
		close(trace.fd);
	}
	trace.fd = -1;
	trace.area = NULL;
}

/* The map whole tasks are harvested into (one workload at a time). */
static struct mmf_cover *harvest_into;
static __thread timer_t harvest_timer;
static __thread bool harvesting;

static void harvest(int sig)
{
	int saved = errno;

	(void)sig;
	mmf_kcov_call_end(harvest_into);
	errno = saved;
}

static void harvest_block(bool block)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGPROF);
	pthread_sigmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

void mmf_kcov_task_cover(struct mmf_cover *c, bool start)
{
	struct sigaction sa = { .sa_handler = harvest, .sa_flags = SA_RESTART };
	struct sigevent ev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = SIGPROF };
	struct itimerspec every = { .it_interval.tv_nsec = HARVEST_NS,
				    .it_value.tv_nsec = HARVEST_NS };

	if (!c)
		return;
	if (!start) {
		harvest_block(true);
		if (harvesting)
			timer_delete(harvest_timer);
		harvesting = false;
		mmf_kcov_call_end(c);
		mmf_kcov_task_exit();
		return;
	}
	/* A forked child's descriptor is its parent's: open one of its own. */
	mmf_kcov_forked();
	harvest_into = c;
	mmf_kcov_call_begin(c);
	ev._sigev_un._tid = gettid();
	sigaction(SIGPROF, &sa, NULL);
	harvesting = !timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &harvest_timer) &&
		     !timer_settime(harvest_timer, 0, &every, NULL);
	harvest_block(false);
}
