/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the benchmarks share and nobody else needs: their run functions (for
 * the table in bench.c), /proc/vmstat deltas, CPU and wall times, anonymous
 * areas, and children that are always reaped.
 */
#ifndef MMF_BENCH_INTERNAL_H
#define MMF_BENCH_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "bench/bench.h"

#define MiB (1UL << 20)

int mmf_bench_madv_free(const struct mmf_bench_ctx *c, struct mmf_bench_result *res);
int mmf_bench_madv_dontneed(const struct mmf_bench_ctx *c, struct mmf_bench_result *res);
int mmf_bench_pageout_64k(const struct mmf_bench_ctx *c, struct mmf_bench_result *res);
int mmf_bench_pageout_4k(const struct mmf_bench_ctx *c, struct mmf_bench_result *res);
int mmf_bench_swapin_reuse(const struct mmf_bench_ctx *c, struct mmf_bench_result *res);
int mmf_bench_swap_free_exit(const struct mmf_bench_ctx *c, struct mmf_bench_result *res);
int mmf_bench_mlock_scaling(const struct mmf_bench_ctx *c, struct mmf_bench_result *res);

/* "bench NAME: what: strerror(err)" on stderr; returns -err. */
int mmf_bench_fail(const char *bench, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The /proc/vmstat counters the benchmarks report. */
enum bench_vm { BV_PSWPIN, BV_PSWPOUT, BV_THP_SWPOUT, BV_NR };

struct bench_vmstat {
	uint64_t v[BV_NR];
	bool have[BV_NR];	/* an older kernel lacks thp_swpout */
};

void mmf_bench_vmstat_read(struct bench_vmstat *s);
/* Add after - before of f as metric name; nothing if the kernel lacks f. */
void mmf_bench_add_vm_delta(struct mmf_bench_result *res, const char *name,
			const struct bench_vmstat *before, const struct bench_vmstat *after,
			enum bench_vm f);

double mmf_bench_ms_since(uint64_t t0_ns);
double mmf_bench_tv_ms(const struct timeval *tv);
/* CPU time of who (RUSAGE_SELF, RUSAGE_CHILDREN) spent between a and b. */
double mmf_bench_user_ms(const struct rusage *a, const struct rusage *b);
double mmf_bench_sys_ms(const struct rusage *a, const struct rusage *b);

/* 0 if some swap is on, else -ENOSPC with a warning. */
int mmf_bench_need_swap(const char *bench);

/*
 * An anonymous private area of len bytes at an address aligned to align (a
 * power of two, 0: pages), or NULL with errno. munmap(p, len) frees it.
 */
void *mmf_bench_map(size_t len, size_t align);
/*
 * Write every page with data that is not one repeated byte (zram would
 * store same-filled pages without compressing them).
 */
void mmf_bench_fill(void *p, size_t len, uint64_t seed);
/* MADV_PAGEOUT, retried on EAGAIN; 0 or -errno. */
int mmf_bench_pageout(void *p, size_t len);

/* A thread of the workload starts (true) or ends: the run's task hook. */
void mmf_bench_task(bool start);
/*
 * Fork n children, child i running fn(i, arg) and exiting with its return
 * value (an errno, 0 for success). 0, or -errno after killing and reaping
 * those already forked.
 */
int mmf_bench_fork(int n, int (*fn)(int i, void *arg), void *arg, pid_t *pids);
/*
 * Reap them all: 0, or -errno of the first that failed (SIGKILL: -ENOMEM,
 * the OOM killer's doing), with a warning.
 */
int mmf_bench_wait(const char *bench, int n, pid_t *pids);
/* SIGKILL and reap them all (error paths). */
void mmf_bench_kill(int n, pid_t *pids);

#endif
