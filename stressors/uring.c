// SPDX-License-Identifier: GPL-2.0
/*
 * io_uring: batches of IORING_OP_MADVISE (PAGEOUT, COLD, DONTNEED,
 * WILLNEED) on an area of its own and reads and writes between that area
 * and a tmpfs file, all forced onto io-wq workers (IOSQE_ASYNC), so that
 * kernel threads fault, reclaim and swap the pages while the thread itself
 * writes them. Through liburing (liburing.a of both arches serves the
 * static guest binaries).
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "stressors/stressor.h"
#include "sys/sysfs.h"

#define ENTRIES	32

enum { OPT_AREA, OPT_BATCH, OPT_OPS, OPT_ASYNC, OPT_ADVICE };
enum { OP_MADVISE = 1, OP_READ = 2, OP_WRITE = 4 };

struct ring {
	struct io_uring uring;
	int file;
	char *area;
	size_t pages;
	long pg;
};

static int uring_check(struct mmf_stress_ctx *c)
{
	struct io_uring uring;
	int r = io_uring_queue_init(1, &uring, 0);

	if (r < 0)
		return mmf_sys_fail(r == -ENOSYS ? EOPNOTSUPP : -r, "io_uring_setup");
	io_uring_queue_exit(&uring);
	return 0;
}

/* The ring, the area and an unnamed tmpfs file: nothing left to undo. */
static int ring_init(struct mmf_stress_ctx *c)
{
	struct ring *r = mmf_xcalloc(1, sizeof(*r));
	int err;

	r->file = -1;
	r->pg = sysconf(_SC_PAGESIZE);
	r->pages = (c->opt[OPT_AREA] << 20) / r->pg;
	err = io_uring_queue_init(ENTRIES, &r->uring, 0);
	if (err < 0) {
		free(r);
		return mmf_sys_fail(-err, "io_uring: set up");
	}
	r->file = open("/dev/shm", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (r->file < 0)
		r->file = open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (r->file < 0 || ftruncate(r->file, r->pages * r->pg))
		goto fail;
	r->area = mmap(NULL, r->pages * r->pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r->area == MAP_FAILED)
		goto fail;
	memset(r->area, 0x5a, r->pages * r->pg);
	c->priv = r;
	return 0;
fail:
	err = mmf_sys_fail(errno, "io_uring: set up");
	io_uring_queue_exit(&r->uring);
	if (r->file >= 0)
		close(r->file);
	free(r);
	return err;
}

static const int advice[] = { MADV_PAGEOUT, MADV_COLD, MADV_DONTNEED, MADV_WILLNEED };

/* The n-th set bit of mask (of at most 'bits'): draws as if from a list. */
static unsigned int nth_bit(struct mmf_stress_ctx *c, unsigned int mask, unsigned int bits)
{
	unsigned int n = mmf_rand_below(&c->rnd, __builtin_popcount(mask));

	for (unsigned int k = 0; k < bits; k++)
		if ((mask & (1u << k)) && !n--)
			return k;
	return 0;
}

static void prep(struct mmf_stress_ctx *c, struct ring *r, struct io_uring_sqe *sqe)
{
	size_t first = mmf_rand_below(&c->rnd, r->pages);
	size_t n = MIN(r->pages - first, 1 + mmf_rand_below(&c->rnd, 32));
	char *addr = r->area + first * r->pg;
	size_t len = n * r->pg;

	switch (nth_bit(c, c->opt[OPT_OPS], 3)) {
	case 0:
		io_uring_prep_madvise(sqe, addr, len,
				      advice[nth_bit(c, c->opt[OPT_ADVICE], ARRAY_SIZE(advice))]);
		break;
	case 1:	/* file -> area: io-wq faults the area */
		io_uring_prep_read(sqe, r->file, addr, len,
				   mmf_rand_below(&c->rnd, r->pages - n + 1) * r->pg);
		break;
	default:
		io_uring_prep_write(sqe, r->file, addr, len,
				    mmf_rand_below(&c->rnd, r->pages - n + 1) * r->pg);
		break;
	}
	if (c->opt[OPT_ASYNC])
		io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
}

static int uring_step(struct mmf_stress_ctx *c)
{
	struct ring *r = c->priv;
	struct io_uring_cqe *cqe;
	unsigned int n, head, seen = 0;
	int ret = 0, err;

	if (!r) {
		ret = ring_init(c);
		if (ret < 0)
			return ret;
		r = c->priv;
	}
	n = MIN(c->opt[OPT_BATCH], ENTRIES);
	for (unsigned int i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&r->uring);

		if (!sqe)
			break;
		prep(c, r, sqe);
		io_uring_sqe_set_data64(sqe, i);
	}
	/* While the workers run, this thread faults the same pages. */
	for (int i = 0; i < 64; i++)
		r->area[mmf_rand_below(&c->rnd, r->pages) * r->pg] ^= 1;
	err = io_uring_submit_and_wait(&r->uring, n);
	if (err < 0)
		return mmf_sys_fail(-err, "io_uring_enter");
	io_uring_for_each_cqe(&r->uring, head, cqe) {
		if (cqe->res < 0 && !ret)
			ret = mmf_sys_fail(-cqe->res, "io_uring op");
		seen++;
	}
	io_uring_cq_advance(&r->uring, seen);
	return ret;
}

const struct mmf_stressor_info mmf_stressor_uring = {
	.name = "uring",
	.help = "io_uring: async MADVISE and tmpfs reads/writes on io-wq workers",
	.period_ms = 200,
	.opts = {
		{ "area", "own area and file, MiB", 4, 1, 1024 },
		{ "batch", "operations per step", 16, 1, ENTRIES },
		{ "ops", "kinds of operation: 1 MADVISE, 2 READ, 4 WRITE, or a sum", 7, 1, 7 },
		{ "async", "1: every operation on an io-wq worker; 0: inline where it can", 1, 0, 1 },
		{ "advice", "MADVISE advice: 1 PAGEOUT, 2 COLD, 4 DONTNEED, 8 WILLNEED, or a sum", 15, 1, 15 },
	},
	.setup = uring_check,
	.step = uring_step,
};
