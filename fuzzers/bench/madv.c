// SPDX-License-Identifier: GPL-2.0
/*
 * madv-free and madv-dontneed: several processes each map an area, memset
 * it, push it to swap with MADV_PAGEOUT and then drop it with MADV_FREE
 * resp. MADV_DONTNEED, in a loop: the workload of the MADV_FREE on swap
 * entries postings. Both advices must free the swap entries without
 * reading them back, so pswpin stays near zero unless one of them faults
 * pages in; elapsed, user and sys time show the cost of the zapping.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "bench/internal.h"
#include "util/util.h"

#define LOOPS	3

struct madv_arg {
	size_t len;
	int advice;
};

static int madv_child(int i, void *arg)
{
	const struct madv_arg *a = arg;
	char *p = mmf_bench_map(a->len, 0);

	if (!p)
		return errno;
	for (int l = 0; l < LOOPS; l++) {
		int r;

		memset(p, 0x5a + i + l, a->len);
		r = mmf_bench_pageout(p, a->len);
		if (r < 0)
			return -r;
		if (madvise(p, a->len, a->advice))
			return errno;
	}
	munmap(p, a->len);
	return 0;
}

static int madv_run(const char *name, int advice, const struct mmf_bench_ctx *c,
		    struct mmf_bench_result *res)
{
	/* Half the budget: the rest is headroom for the swap cache. */
	int nr = MAX(2, MIN(c->cpus, 8));
	struct madv_arg a = { .len = c->mem_bytes / 2 / nr & ~(MiB - 1), .advice = advice };
	struct bench_vmstat v0, v1;
	struct rusage r0, r1;
	pid_t pids[8];
	uint64_t t0;
	int r;

	r = mmf_bench_need_swap(name);
	if (r < 0)
		return r;
	if (!a.len)
		a.len = MiB;
	mmf_bench_vmstat_read(&v0);
	getrusage(RUSAGE_CHILDREN, &r0);
	t0 = mmf_now_ns();
	r = mmf_bench_fork(nr, madv_child, &a, pids);
	if (r < 0)
		return mmf_bench_fail(name, -r, "fork");
	r = mmf_bench_wait(name, nr, pids);
	if (r < 0)
		return r;
	mmf_bench_add(res, "elapsed_ms", "ms", mmf_bench_ms_since(t0), false);
	getrusage(RUSAGE_CHILDREN, &r1);
	mmf_bench_vmstat_read(&v1);
	mmf_bench_add(res, "user_ms", "ms", mmf_bench_user_ms(&r0, &r1), false);
	mmf_bench_add(res, "sys_ms", "ms", mmf_bench_sys_ms(&r0, &r1), false);
	mmf_bench_add_vm_delta(res, "pswpin", &v0, &v1, BV_PSWPIN);
	mmf_bench_add_vm_delta(res, "pswpout", &v0, &v1, BV_PSWPOUT);
	return 0;
}

int mmf_bench_madv_free(const struct mmf_bench_ctx *c, struct mmf_bench_result *res)
{
	return madv_run("madv-free", MADV_FREE, c, res);
}

int mmf_bench_madv_dontneed(const struct mmf_bench_ctx *c, struct mmf_bench_result *res)
{
	return madv_run("madv-dontneed", MADV_DONTNEED, c, res);
}
