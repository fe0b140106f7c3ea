// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of the benchmarks: counters, times, memory and children. Every
 * helper reports failure as -errno so that a run can end cleanly.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/internal.h"
#include "sys/swapdev.h"
#include "util/util.h"

int mmf_bench_fail(const char *bench, int err, const char *fmt, ...)
{
	va_list ap;
	char *what;

	va_start(ap, fmt);
	what = mmf_xvasprintf(fmt, ap);
	va_end(ap);
	mmf_warnx_("bench %s: %s: %s", bench, what, strerror(err));
	free(what);
	return -err;
}

static const char *const vm_names[BV_NR] = {
	[BV_PSWPIN] = "pswpin",
	[BV_PSWPOUT] = "pswpout",
	[BV_THP_SWPOUT] = "thp_swpout",
};

void mmf_bench_vmstat_read(struct bench_vmstat *s)
{
	char *text = mmf_read_file("/proc/vmstat", NULL), *line, *save = NULL;

	memset(s, 0, sizeof(*s));
	if (!text)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' ');

		if (!sp)
			continue;
		*sp = '\0';
		for (int f = 0; f < BV_NR; f++)
			if (!strcmp(line, vm_names[f])) {
				s->v[f] = strtoull(sp + 1, NULL, 10);
				s->have[f] = true;
			}
	}
	free(text);
}

void mmf_bench_add_vm_delta(struct mmf_bench_result *res, const char *name,
			const struct bench_vmstat *before, const struct bench_vmstat *after,
			enum bench_vm f)
{
	if (before->have[f] && after->have[f])
		mmf_bench_add(res, name, "pages", (double)(after->v[f] - before->v[f]), false);
}

double mmf_bench_ms_since(uint64_t t0_ns)
{
	return (mmf_now_ns() - t0_ns) / 1e6;
}

double mmf_bench_tv_ms(const struct timeval *tv)
{
	return tv->tv_sec * 1e3 + tv->tv_usec / 1e3;
}

double mmf_bench_user_ms(const struct rusage *a, const struct rusage *b)
{
	return mmf_bench_tv_ms(&b->ru_utime) - mmf_bench_tv_ms(&a->ru_utime);
}

double mmf_bench_sys_ms(const struct rusage *a, const struct rusage *b)
{
	return mmf_bench_tv_ms(&b->ru_stime) - mmf_bench_tv_ms(&a->ru_stime);
}

int mmf_bench_need_swap(const char *bench)
{
	struct mmf_swap_info *list = NULL;
	int n = mmf_swap_list(&list);

	free(list);
	if (n > 0)
		return 0;
	mmf_warnx_("bench %s: needs swap, and none is on", bench);
	return -ENOSPC;
}

void *mmf_bench_map(size_t len, size_t align)
{
	size_t extra = align > (size_t)getpagesize() ? align : 0;
	char *p, *a;

	p = mmap(NULL, len + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (!extra)
		return p;
	/* Trim the slack so large folios can start at the first byte. */
	a = (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
	if (a > p)
		munmap(p, a - p);
	if (p + len + extra > a + len)
		munmap(a + len, p + len + extra - (a + len));
	return a;
}

void mmf_bench_fill(void *p, size_t len, uint64_t seed)
{
	uint64_t *w = p;

	for (size_t i = 0; i < len / 8; i++)
		w[i] = seed + i;
}

int mmf_bench_pageout(void *p, size_t len)
{
	for (int tries = 0; tries < 10; tries++) {
		if (!madvise(p, len, MADV_PAGEOUT))
			return 0;
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
	}
	return -EAGAIN;
}

/* The hook of the run in progress (runs are one at a time). */
static void (*task_hook)(bool start);

void mmf_bench_task(bool start)
{
	if (task_hook)
		task_hook(start);
}

int mmf_bench_run(const struct mmf_bench_info *b, const struct mmf_bench_ctx *c,
		  struct mmf_bench_result *res)
{
	int r;

	task_hook = c->task;
	mmf_bench_task(true);
	r = b->run(c, res);
	mmf_bench_task(false);
	task_hook = NULL;
	return r;
}

int mmf_bench_fork(int n, int (*fn)(int i, void *arg), void *arg, pid_t *pids)
{
	pid_t parent = getpid();

	for (int i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			int err = errno;

			mmf_bench_kill(i, pids);
			return -err;
		}
		if (!pids[i]) {
			/* Die with the parent: no child outlives a killed run. */
			int r;

			mmf_die_with_parent(parent, SIGKILL, EINTR);
			mmf_bench_task(true);
			r = fn(i, arg);
			mmf_bench_task(false);
			_exit(r & 0xff);
		}
	}
	return 0;
}

int mmf_bench_wait(const char *bench, int n, pid_t *pids)
{
	int ret = 0;

	for (int i = 0; i < n; i++) {
		int st;

		while (waitpid(pids[i], &st, 0) < 0)
			if (errno != EINTR) {
				st = 0;
				break;
			}
		if (ret)
			continue;
		if (WIFSIGNALED(st))
			ret = mmf_bench_fail(bench, WTERMSIG(st) == SIGKILL ? ENOMEM : EINTR,
					 "child killed by signal %d", WTERMSIG(st));
		else if (WIFEXITED(st) && WEXITSTATUS(st))
			ret = mmf_bench_fail(bench, WEXITSTATUS(st), "child");
	}
	return ret;
}

void mmf_bench_kill(int n, pid_t *pids)
{
	for (int i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	for (int i = 0; i < n; i++)
		while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
			;
}
