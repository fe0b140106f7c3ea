// SPDX-License-Identifier: GPL-2.0
/*
 * swap-free-exit: children that hold much swap are killed together; the
 * time from the kill to the last one reaped is mostly freeing their swap
 * entries. Measured with every swap device the caller made (entries spread
 * over devices of equal priority), then with only the first: the others
 * are swapped off for that part and back on at their priorities. Devices
 * not in ctx->swaps are never touched: they are not ours.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench/internal.h"
#include "sys/swapdev.h"
#include "sys/sysfs.h"
#include "util/util.h"

#define MAX_KIDS	16

struct hold_arg {
	size_t len;
	int ready;	/* pipe: one byte per child with its memory in swap */
};

static int hold_child(int i, void *arg)
{
	const struct hold_arg *a = arg;
	char *p = mmf_bench_map(a->len, 0);
	int r;

	if (!p)
		return errno;
	mmf_bench_fill(p, a->len, i * 1000003ULL);
	r = mmf_bench_pageout(p, a->len);
	if (r < 0)
		return -r;
	if (write(a->ready, "r", 1) != 1)
		return EPIPE;
	for (;;)
		pause();
}

/* One measurement: exit_ms of nr children holding len bytes each. */
static int exit_once(const char *name, int nr, size_t len, double *ms)
{
	struct hold_arg a = { .len = len };
	pid_t pids[MAX_KIDS];
	int fds[2], got = 0, r;
	uint64_t t0;
	char ch;

	if (pipe(fds))
		return mmf_bench_fail(name, errno, "pipe");
	a.ready = fds[1];
	r = mmf_bench_fork(nr, hold_child, &a, pids);
	close(fds[1]);
	if (r < 0) {
		close(fds[0]);
		return mmf_bench_fail(name, -r, "fork");
	}
	/* EOF before all are ready: a child failed, and mmf_bench_wait says why. */
	while (got < nr && read(fds[0], &ch, 1) == 1)
		got++;
	close(fds[0]);
	if (got < nr) {
		for (int i = 0; i < nr; i++)
			kill(pids[i], SIGKILL);
		r = mmf_bench_wait(name, nr, pids);
		return r < 0 ? r : mmf_bench_fail(name, EIO, "children not ready");
	}
	t0 = mmf_now_ns();
	for (int i = 0; i < nr; i++)
		kill(pids[i], SIGKILL);
	mmf_bench_kill(nr, pids);
	*ms = mmf_bench_ms_since(t0);
	return 0;
}

int mmf_bench_swap_free_exit(const struct mmf_bench_ctx *c, struct mmf_bench_result *res)
{
	const char *name = "swap-free-exit";
	int nr = MAX(2, MIN(2 * c->cpus, MAX_KIDS)), r, e;
	/* Half the budget, so one device of the caller's can hold it all. */
	size_t len = MAX(c->mem_bytes / 2 / nr & ~(MiB - 1), MiB);
	bool was_on[8] = { false };
	struct mmf_swap_info info;
	double ms;

	r = mmf_bench_need_swap(name);
	if (r < 0)
		return r;
	r = exit_once(name, nr, len, &ms);
	if (r < 0)
		return r;
	if (c->nr_swaps < 2) {
		mmf_bench_add(res, "exit_ms_1dev", "ms", ms, false);
		return 0;
	}
	mmf_bench_add(res, "exit_ms_ndev", "ms", ms, false);
	for (int i = 1; i < c->nr_swaps && i < 8; i++) {
		if (mmf_swap_find(c->swaps[i], &info) <= 0)
			continue;
		r = mmf_swapoff(c->swaps[i]);
		if (r < 0) {
			r = mmf_bench_fail(name, -r, "%s", mmf_sys_err());
			goto restore;
		}
		was_on[i] = true;
	}
	r = exit_once(name, nr, len, &ms);
	if (r >= 0)
		mmf_bench_add(res, "exit_ms_1dev", "ms", ms, false);
restore:
	for (int i = 1; i < c->nr_swaps && i < 8; i++)
		if (was_on[i]) {
			e = mmf_swapon(c->swaps[i], c->swap_prios ? c->swap_prios[i] : -1);
			if (e < 0)
				r = mmf_bench_fail(name, -e, "swapon back: %s", mmf_sys_err());
		}
	return r;
}
