// SPDX-License-Identifier: GPL-2.0
/*
 * zap-swap-check: does a page come back wrong from swap while another
 * thread zaps and pages out memory of its own? (tests/load/zap-swap-check.sh
 * runs it in a memory cgroup of its own, not part of the suite.)
 *
 * The stress runner's heap is zeroed under heavy swapping, as valgrind sees
 * (tests/load/heap-loss.sh), when its uring stressor advises an area of its
 * own through io_uring. This is the same traffic with no valgrind and no
 * mmfuzz code: a working set larger than the cgroup's limit, so that it
 * swaps, every page filled with a pattern derived from each word's address
 * and the page's generation, checked and rewritten at random; beside it a
 * thread that advises its own 4 MiB area (PAGEOUT, COLD, DONTNEED,
 * WILLNEED, as --advice picks) through IORING_OP_MADVISE forced onto io-wq
 * workers (--mode u), through madvise(2) (s) or not at all (n), and faults
 * that area meanwhile. Nothing here writes the working set but its own
 * checks, so a page that reads back wrong is the kernel's doing.
 *
 * Exit: 0 clean, 3 a page read back wrong (printed with what it holds),
 * 1 an error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <liburing.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define AREA_MB		4
#define BATCH		16	/* advice operations per round */
#define RING_ENTRIES	32

static const int advice[] = { MADV_PAGEOUT, MADV_COLD, MADV_DONTNEED, MADV_WILLNEED };

struct adviser {
	char mode;
	unsigned int mask;
	struct io_uring ring;
	char *area;
	size_t pages;
	long pg;
	atomic_bool stop;
	unsigned long ops, failed;
};

/* murmur3's 64-bit finalizer: the pattern, and the random numbers. */
static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

static uint64_t next(uint64_t *s)
{
	*s = mix(*s + 1);
	return *s;
}

/* What the word at w holds in generation gen. */
static uint64_t pattern(const uint64_t *w, uint32_t gen)
{
	return mix((uint64_t)(uintptr_t)w + gen);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int pick_advice(struct adviser *a, uint64_t *s)
{
	unsigned int k;

	do
		k = (next(s) >> 40) % 4;
	while (!(a->mask & (1u << k)));
	return advice[k];
}

/* BATCH advice calls on random ranges of the area: made (s) or queued (u). */
static void advise(struct adviser *a, uint64_t *s)
{
	for (int i = 0; i < BATCH; i++) {
		size_t first = next(s) % a->pages, n = 1 + (*s >> 20) % 32;
		char *addr = a->area + first * a->pg;
		int adv = pick_advice(a, s);

		if (n > a->pages - first)
			n = a->pages - first;
		if (a->mode == 's') {
			a->failed += madvise(addr, n * a->pg, adv) != 0;
		} else {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&a->ring);

			io_uring_prep_madvise(sqe, addr, n * a->pg, adv);
			io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
		}
	}
	a->ops += BATCH;
}

static void reap(struct adviser *a)
{
	struct io_uring_cqe *cqe;
	unsigned int head, seen = 0;

	if (io_uring_submit_and_wait(&a->ring, BATCH) < 0) {
		a->failed += BATCH;
		return;
	}
	io_uring_for_each_cqe(&a->ring, head, cqe) {
		a->failed += cqe->res < 0;
		seen++;
	}
	io_uring_cq_advance(&a->ring, seen);
}

static void *adviser_run(void *arg)
{
	struct adviser *a = arg;
	struct timespec pause = { 0, 2000000 };
	uint64_t s = 1;

	while (!atomic_load(&a->stop)) {
		if (a->mode != 'n')
			advise(a, &s);
		/* Faulted meanwhile, as the uring stressor faults its area. */
		for (int i = 0; i < 64; i++)
			a->area[(next(&s) % a->pages) * a->pg] ^= 1;
		if (a->mode == 'u')
			reap(a);
		nanosleep(&pause, NULL);
	}
	return NULL;
}

/* A decimal number in [min, max], else a one-line error. */
static int parse_num(const char *opt, const char *arg, unsigned long min, unsigned long max,
		     unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (arg[0] < '0' || arg[0] > '9' || *end || errno || v < min || v > max) {
		fprintf(stderr, "zap-swap-check: --%s: '%s' is not a number in %lu..%lu\n",
			opt, arg, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: zap-swap-check [--mode u|s|n] [--seconds N] [--mb N] [--advice MASK]\n"
		"  --mode     advise the own area through io_uring (u), madvise(2) (s) or not (n); u\n"
		"  --seconds  how long to check; 300\n"
		"  --mb       checked working set, MiB (make it larger than the cgroup's limit); 96\n"
		"  --advice   1 PAGEOUT, 2 COLD, 4 DONTNEED, 8 WILLNEED, or a sum; 15\n");
}

/* Check page p; on a wrong word print the page and return false. */
static bool check_page(uint64_t *ws, size_t p, size_t wpp, uint32_t gen)
{
	uint64_t *w = &ws[p * wpp];
	size_t zero = 0;

	for (size_t i = 0; i < wpp; i++) {
		if (w[i] == pattern(&w[i], gen))
			continue;
		for (size_t j = 0; j < wpp; j++)
			zero += !w[j];
		printf("zap-swap-check: CORRUPT page %zu (%p) gen %u word %zu: %#llx, want %#llx; %zu of %zu words zero\n",
		       p, (void *)w, gen, i, (unsigned long long)w[i],
		       (unsigned long long)pattern(&w[i], gen), zero, wpp);
		return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "seconds", required_argument, NULL, 't' },
		{ "mb", required_argument, NULL, 'b' },
		{ "advice", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct adviser a = { .mode = 'u' };
	unsigned long secs = 300, mb = 96, mask = 15, checks = 0, rewrites = 0;
	size_t pages, wpp;
	uint64_t *ws, s = 7;
	uint32_t *gen;
	pthread_t thread;
	double end;
	bool bad = false;
	int c, err;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (strcmp(optarg, "u") && strcmp(optarg, "s") && strcmp(optarg, "n")) {
				fprintf(stderr, "zap-swap-check: --mode: '%s' is not u, s or n\n",
					optarg);
				return 1;
			}
			a.mode = optarg[0];
			break;
		case 't':
			if (parse_num("seconds", optarg, 1, 86400 * 7, &secs))
				return 1;
			break;
		case 'b':
			if (parse_num("mb", optarg, 1, 1 << 20, &mb))
				return 1;
			break;
		case 'a':
			if (parse_num("advice", optarg, 1, 15, &mask))
				return 1;
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:	/* getopt_long said why */
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "zap-swap-check: unexpected argument '%s'\n", argv[optind]);
		return 1;
	}
	a.mask = mask;
	a.pg = sysconf(_SC_PAGESIZE);
	a.pages = ((size_t)AREA_MB << 20) / a.pg;
	wpp = a.pg / sizeof(uint64_t);
	pages = (mb << 20) / a.pg;

	if (a.mode == 'u') {
		err = io_uring_queue_init(RING_ENTRIES, &a.ring, 0);
		if (err < 0) {
			fprintf(stderr, "zap-swap-check: io_uring_queue_init: %s\n", strerror(-err));
			return 1;
		}
	}
	a.area = mmap(NULL, a.pages * a.pg, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ws = mmap(NULL, pages * a.pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	gen = calloc(pages, sizeof(*gen));
	if (a.area == MAP_FAILED || ws == MAP_FAILED || !gen) {
		fprintf(stderr, "zap-swap-check: %lu MiB: %s\n", mb, strerror(errno));
		return 1;
	}
	memset(a.area, 0x5a, a.pages * a.pg);
	for (size_t i = 0; i < pages * wpp; i++)
		ws[i] = pattern(&ws[i], 0);

	err = pthread_create(&thread, NULL, adviser_run, &a);
	if (err) {
		fprintf(stderr, "zap-swap-check: pthread_create: %s\n", strerror(err));
		return 1;
	}
	end = now() + secs;
	while (!bad && now() < end) {
		for (int k = 0; k < 256; k++) {
			size_t p = next(&s) % pages;

			if (!check_page(ws, p, wpp, gen[p])) {
				bad = true;
				break;
			}
			checks++;
			/* Half the checks move the page on, so that stale content shows. */
			if (s & 1) {
				uint64_t *w = &ws[p * wpp];

				gen[p]++;
				for (size_t i = 0; i < wpp; i++)
					w[i] = pattern(&w[i], gen[p]);
				rewrites++;
			}
		}
	}
	atomic_store(&a.stop, true);
	pthread_join(thread, NULL);
	printf("zap-swap-check: %s: %lu page checks, %lu rewrites of %zu pages; mode %c, %lu advice ops (%lu failed)\n",
	       bad ? "BAD" : "ok", checks, rewrites, pages, a.mode, a.ops, a.failed);
	return bad ? 3 : 0;
}
