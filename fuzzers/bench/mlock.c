// SPDX-License-Identifier: GPL-2.0
/*
 * mlock-scaling: T threads, T = 1..cpus, each mlock and munlock its own
 * small range many times. The ranges are distinct, so any slowdown as T
 * grows is contention in the kernel (mmap_lock, the LRU and mlock
 * batches). Raw syscalls: ASan intercepts mlock(3).
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench/internal.h"
#include "util/util.h"

#define RANGE		(64 << 10)
#define CALLS		2000	/* pairs per thread: a few ms natively */
#define MAX_THREADS	64

/* A gate all threads wait at, so they start at once. */
struct gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool open;
};

struct mlock_arg {
	struct gate *gate;
	char *p;
	int err;
};

static void *mlock_thread(void *arg)
{
	struct mlock_arg *a = arg;

	pthread_mutex_lock(&a->gate->lock);
	while (!a->gate->open)
		pthread_cond_wait(&a->gate->cond, &a->gate->lock);
	pthread_mutex_unlock(&a->gate->lock);
	mmf_bench_task(true);
	for (int i = 0; i < CALLS; i++) {
		if (syscall(SYS_mlock, a->p, RANGE) || syscall(SYS_munlock, a->p, RANGE)) {
			a->err = errno;
			break;
		}
	}
	mmf_bench_task(false);
	return NULL;
}

/* Wall time of nr threads doing CALLS pairs each, per call of one thread. */
static int mlock_once(const char *name, int nr, char *area, double *ns)
{
	struct gate gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false };
	struct mlock_arg a[MAX_THREADS];
	pthread_t th[MAX_THREADS];
	int started = 0, r = 0;
	uint64_t t0;

	for (int i = 0; i < nr && !r; i++) {
		a[i] = (struct mlock_arg){ .gate = &gate, .p = area + (size_t)i * RANGE };
		r = pthread_create(&th[i], NULL, mlock_thread, &a[i]);
		if (!r)
			started++;
	}
	pthread_mutex_lock(&gate.lock);
	gate.open = true;
	pthread_cond_broadcast(&gate.cond);
	pthread_mutex_unlock(&gate.lock);
	t0 = mmf_now_ns();
	for (int i = 0; i < started; i++) {
		pthread_join(th[i], NULL);
		if (!r && a[i].err)
			r = a[i].err;
	}
	*ns = (mmf_now_ns() - t0) / (2.0 * CALLS);
	return r ? mmf_bench_fail(name, r, "%d threads", nr) : 0;
}

/*
 * T = 1..cpus; on more CPUs than a result holds metrics, powers of two
 * and then all of them (up to MAX_THREADS).
 */
static int next_t(int t, int cpus)
{
	if (cpus <= MMF_BENCH_MAX_METRICS)
		return t + 1;
	return t * 2 < cpus ? t * 2 : (t < cpus ? cpus : cpus + 1);
}

int mmf_bench_mlock_scaling(const struct mmf_bench_ctx *c, struct mmf_bench_result *res)
{
	const char *name = "mlock-scaling";
	int cpus = MAX(c->cpus, 1), max_t = MIN(cpus, 64), r = 0;
	size_t len = RANGE * (size_t)max_t;
	char metric[32], *area;
	double ns;

	area = mmf_bench_map(len, 0);
	if (!area)
		return mmf_bench_fail(name, errno, "mmap");
	mmf_bench_fill(area, len, 3);
	for (int t = 1; t <= max_t && !r; t = next_t(t, max_t)) {
		r = mlock_once(name, t, area, &ns);
		snprintf(metric, sizeof(metric), "ns_per_call_t%d", t);
		if (!r)
			mmf_bench_add(res, metric, "ns/call", ns, false);
	}
	munmap(area, len);
	return r;
}
