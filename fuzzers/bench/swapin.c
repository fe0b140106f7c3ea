// SPDX-License-Identifier: GPL-2.0
/*
 * swapin-reuse: memory is swapped out, read back (major faults), then
 * written. When swap-in maps an exclusive folio writable at once (reuse),
 * the writes take no fault at all; without that every written page takes
 * a minor fault that copies or reuses it. Counts are this process's own
 * getrusage deltas, so other work on the machine does not leak in.
 */
#include <errno.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench/internal.h"
#include "util/util.h"

int mmf_bench_swapin_reuse(const struct mmf_bench_ctx *c, struct mmf_bench_result *res)
{
	const char *name = "swapin-reuse";
	size_t len = c->mem_bytes / 2 & ~(MiB - 1), psz = getpagesize();
	volatile char *v;
	struct rusage r0, r1, r2;
	uint64_t t0, t1;
	unsigned long sum = 0;
	char *p;
	int r;

	r = mmf_bench_need_swap(name);
	if (r < 0)
		return r;
	len = MAX(len, MiB);
	p = mmf_bench_map(len, 0);
	if (!p)
		return mmf_bench_fail(name, errno, "mmap %zu MiB", len / MiB);
	/* Base pages: a large folio swapped in whole would hide the count. */
	madvise(p, len, MADV_NOHUGEPAGE);
	mmf_bench_fill(p, len, 7);
	r = mmf_bench_pageout(p, len);
	if (r < 0) {
		munmap(p, len);
		return mmf_bench_fail(name, -r, "MADV_PAGEOUT");
	}
	v = p;
	getrusage(RUSAGE_SELF, &r0);
	t0 = mmf_now_ns();
	for (size_t off = 0; off < len; off += psz)
		sum += v[off];
	t1 = mmf_now_ns();
	getrusage(RUSAGE_SELF, &r1);
	for (size_t off = 0; off < len; off += psz)
		v[off] = (char)sum;
	mmf_bench_add(res, "write_ms", "ms", mmf_bench_ms_since(t1), false);
	getrusage(RUSAGE_SELF, &r2);
	munmap(p, len);
	mmf_bench_add(res, "read_ms", "ms", (t1 - t0) / 1e6, false);
	mmf_bench_add(res, "majflt_read", "faults", r1.ru_majflt - r0.ru_majflt, false);
	mmf_bench_add(res, "minflt_read", "faults", r1.ru_minflt - r0.ru_minflt, false);
	mmf_bench_add(res, "minflt_write", "faults", r2.ru_minflt - r1.ru_minflt, false);
	return 0;
}
