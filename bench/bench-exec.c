// SPDX-License-Identifier: GPL-2.0
/*
 * make bench: the executor's overhead against the same call sequence
 * written as plain C (write a pattern, verify it on read, like a careful
 * hand-written test), measured side by side in one run, and programs per
 * second through the whole runner (fork, timeout, oracles).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "exec/interp.h"
#include "util/rand.h"
#include "util/util.h"

#define NPAGES	1024
#define ROUNDS	6

static const char prog_text[] =
	"m0 = mmap(0, 1024, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
	"write(m0, 0, 1024, 0x11)\n"
	"read(m0, 0, 1024)\n"
	"madvise(m0, 0, 1024, MADV_DONTNEED)\n"
	"write(m0, 0, 1024, 0x22)\n"
	"madvise(m0, 0, 1024, MADV_COLD)\n"
	"read(m0, 0, 1024)\n"
	"munmap(m0, 0, 1024)\n";

static void fill(uint64_t *p, long words, uint64_t w)
{
	for (long i = 0; i < words; i++)
		p[i] = w;
}

static long verify(const uint64_t *p, long words, uint64_t w)
{
	long bad = 0;

	for (long i = 0; i < words; i++)
		bad += p[i] != w;
	return bad;
}

/* The same calls as prog_text, by hand. */
static long plain_c(void)
{
	long len = (long)NPAGES * mmf_psz, words = mmf_psz / 8, bad = 0;
	char *a = mmap(mmf_arena_page(&mmf_arena, 0), len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (a == MAP_FAILED)
		mmf_die("bench: mmap: %m");
	for (int i = 0; i < NPAGES; i++)
		fill((uint64_t *)(a + (long)i * mmf_psz), words, 0x1100000000ull | i);
	for (int i = 0; i < NPAGES; i++)
		bad += verify((uint64_t *)(a + (long)i * mmf_psz), words, 0x1100000000ull | i);
	madvise(a, len, MADV_DONTNEED);
	for (int i = 0; i < NPAGES; i++)
		fill((uint64_t *)(a + (long)i * mmf_psz), words, 0x2200000000ull | i);
	madvise(a, len, MADV_COLD);
	for (int i = 0; i < NPAGES; i++)
		bad += verify((uint64_t *)(a + (long)i * mmf_psz), words, 0x2200000000ull | i);
	munmap(a, len);
	return bad;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int main(void)
{
	struct mmf_exec_opts o = { .timeout_ms = 30000, .exec_log_fd = -1, .corrupt_after = -1, .hang_after = -1 };
	uint64_t tc[ROUNDS * 10], te[ROUNDS * 10], t, runs = 0, t0;
	struct mmf_prog p;
	struct mmf_rand r;
	char err[128];
	int devnull = open("/dev/null", O_WRONLY);

	if (mmf_exec_init() || mmf_prog_parse(prog_text, &p, err, sizeof(err)))
		mmf_die("bench: setup failed: %s", err);
	/* Interleave the two so that machine noise hits both alike. */
	for (int i = 0; i < ROUNDS * 10; i++) {
		t = mmf_now_ns();
		if (plain_c())
			mmf_die("bench: plain C saw a wrong page");
		tc[i] = mmf_now_ns() - t;
		t = mmf_now_ns();
		mmf_exec_interp(&p, &o, devnull);
		te[i] = mmf_now_ns() - t;
	}
	qsort(tc, ROUNDS * 10, sizeof(tc[0]), cmp_u64);
	qsort(te, ROUNDS * 10, sizeof(te[0]), cmp_u64);
	/* The minimum is the cost without interference; the median shows noise. */
	printf("exec overhead: plain C %.3f ms, executor %.3f ms (best of %d, %d pages x 4 passes):"
	       " ratio %.3fx (target <= 1.05x); medians %.3f / %.3f ms: %.3fx\n",
	       tc[0] / 1e6, te[0] / 1e6, ROUNDS * 10, NPAGES, (double)te[0] / tc[0],
	       tc[ROUNDS * 5] / 1e6, te[ROUNDS * 5] / 1e6, (double)te[ROUNDS * 5] / tc[ROUNDS * 5]);

	/* Whole runner, generated programs, no swap of our own. */
	mmf_rand_seed(&r, 1);
	t0 = mmf_now_ns();
	while (mmf_now_ns() - t0 < 10ull * 1000000000) {
		struct mmf_exec_result res;

		mmf_prog_generate(&r, 4 + mmf_rand_below(&r, 24), &p);
		if (mmf_exec_prog(&p, &o, &res))
			mmf_die("bench: cannot run: %m");
		mmf_exec_result_free(&res);
		runs++;
	}
	printf("programs/s natively (generated, runner with fork and oracles, no swap set-up):"
	       " %.1f\n", runs / ((mmf_now_ns() - t0) / 1e9));
	return 0;
}
