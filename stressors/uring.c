// SPDX-License-Identifier: GPL-2.0
/*
 * io_uring: batches of IORING_OP_MADVISE (PAGEOUT, COLD, DONTNEED,
 * WILLNEED) on an area of its own and reads and writes between that area
 * and a tmpfs file, all forced onto io-wq workers (IOSQE_ASYNC), so that
 * kernel threads fault, reclaim and swap the pages while the thread itself
 * writes them. Raw syscalls rather than liburing: nothing extra to link
 * into the static guest binaries, on either arch.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "stressors/stressor.h"
#include "sys/sysfs.h"

#define ENTRIES	32

enum { OPT_AREA, OPT_BATCH };

struct ring {
	int fd, file;
	unsigned int *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	char *area;
	size_t pages;
	long pg;
};

static int ring_setup(unsigned int entries, struct io_uring_params *p)
{
	memset(p, 0, sizeof(*p));
	return syscall(__NR_io_uring_setup, entries, p);
}

static int uring_check(struct mmf_stress_ctx *c)
{
	struct io_uring_params p;
	int fd = ring_setup(1, &p);

	if (fd < 0)
		return mmf_sys_fail(errno == ENOSYS ? EOPNOTSUPP : errno, "io_uring_setup");
	close(fd);
	return 0;
}

static int map_rings(struct ring *r, const struct io_uring_params *p)
{
	size_t sq_sz = p->sq_off.array + p->sq_entries * sizeof(unsigned int);
	size_t cq_sz = p->cq_off.cqes + p->cq_entries * sizeof(struct io_uring_cqe);
	char *sq, *cq;

	if (p->features & IORING_FEAT_SINGLE_MMAP)
		sq_sz = cq_sz = MAX(sq_sz, cq_sz);
	sq = mmap(NULL, sq_sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		  IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED)
		return -errno;
	cq = sq;
	if (!(p->features & IORING_FEAT_SINGLE_MMAP))
		cq = mmap(NULL, cq_sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
			  IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, p->sq_entries * sizeof(struct io_uring_sqe),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (cq == MAP_FAILED || r->sqes == MAP_FAILED)
		return -errno;
	r->sq_tail = (unsigned int *)(sq + p->sq_off.tail);
	r->sq_mask = (unsigned int *)(sq + p->sq_off.ring_mask);
	r->sq_array = (unsigned int *)(sq + p->sq_off.array);
	r->cq_head = (unsigned int *)(cq + p->cq_off.head);
	r->cq_tail = (unsigned int *)(cq + p->cq_off.tail);
	r->cq_mask = (unsigned int *)(cq + p->cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(cq + p->cq_off.cqes);
	return 0;
}

/* The ring, the area and an unnamed tmpfs file: nothing left to undo. */
static int ring_init(struct mmf_stress_ctx *c)
{
	struct ring *r = xcalloc(1, sizeof(*r));
	struct io_uring_params p;
	int err;

	r->file = -1;
	r->pg = sysconf(_SC_PAGESIZE);
	r->pages = (c->opt[OPT_AREA] << 20) / r->pg;
	r->fd = ring_setup(ENTRIES, &p);
	if (r->fd < 0)
		goto fail;
	err = map_rings(r, &p);
	if (err < 0) {
		errno = -err;
		goto fail;
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
	if (r->fd >= 0)
		close(r->fd);
	if (r->file >= 0)
		close(r->file);
	free(r);
	return err;
}

static const int advice[] = { MADV_PAGEOUT, MADV_COLD, MADV_DONTNEED, MADV_WILLNEED };

static void prep(struct mmf_stress_ctx *c, struct ring *r, struct io_uring_sqe *sqe)
{
	size_t first = mmf_rand_below(&c->rnd, r->pages);
	size_t n = MIN(r->pages - first, 1 + mmf_rand_below(&c->rnd, 32));

	memset(sqe, 0, sizeof(*sqe));
	sqe->flags = IOSQE_ASYNC;
	sqe->addr = (uintptr_t)(r->area + first * r->pg);
	sqe->len = n * r->pg;
	switch (mmf_rand_below(&c->rnd, 3)) {
	case 0:
		sqe->opcode = IORING_OP_MADVISE;
		sqe->fadvise_advice = advice[mmf_rand_below(&c->rnd, ARRAY_SIZE(advice))];
		break;
	case 1:
		sqe->opcode = IORING_OP_READ;	/* file -> area: io-wq faults the area */
		sqe->fd = r->file;
		sqe->off = mmf_rand_below(&c->rnd, r->pages - n + 1) * r->pg;
		break;
	default:
		sqe->opcode = IORING_OP_WRITE;
		sqe->fd = r->file;
		sqe->off = mmf_rand_below(&c->rnd, r->pages - n + 1) * r->pg;
		break;
	}
}

static int uring_step(struct mmf_stress_ctx *c)
{
	struct ring *r = c->priv;
	unsigned int tail, head, n;
	int ret = 0;

	if (!r) {
		ret = ring_init(c);
		if (ret < 0)
			return ret;
		r = c->priv;
	}
	n = MIN(c->opt[OPT_BATCH], ENTRIES);
	tail = *r->sq_tail;
	for (unsigned int i = 0; i < n; i++, tail++) {
		unsigned int idx = tail & *r->sq_mask;

		prep(c, r, &r->sqes[idx]);
		r->sqes[idx].user_data = i;
		r->sq_array[idx] = idx;
	}
	atomic_store_explicit((_Atomic unsigned int *)r->sq_tail, tail, memory_order_release);
	/* While the workers run, this thread faults the same pages. */
	for (int i = 0; i < 64; i++)
		r->area[mmf_rand_below(&c->rnd, r->pages) * r->pg] ^= 1;
	if (syscall(__NR_io_uring_enter, r->fd, n, n, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		return mmf_sys_fail(errno, "io_uring_enter");
	head = *r->cq_head;
	while (head != atomic_load_explicit((_Atomic unsigned int *)r->cq_tail,
					    memory_order_acquire)) {
		int res = r->cqes[head & *r->cq_mask].res;

		if (res < 0 && !ret)
			ret = mmf_sys_fail(-res, "io_uring op");
		head++;
	}
	atomic_store_explicit((_Atomic unsigned int *)r->cq_head, head, memory_order_release);
	return ret;
}

const struct mmf_stressor_info mmf_stressor_uring = {
	.name = "uring",
	.help = "io_uring: async MADVISE and tmpfs reads/writes on io-wq workers",
	.period_ms = 200,
	.opts = {
		{ "area", "own area and file, MiB", 4, 1, 1024 },
		{ "batch", "operations per step", 16, 1, ENTRIES },
	},
	.setup = uring_check,
	.step = uring_step,
};
