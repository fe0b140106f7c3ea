/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pin family: vmsplice into the process's own pipes and reading them
 * back, io_uring registered buffers with READ_FIXED and WRITE_FIXED (a
 * ring on raw system calls: a reproducer needs no library), O_DIRECT
 * between a file and memory, and process_vm_readv/writev with this process
 * or a child. Results are bytes done, or -errno.
 */
#ifndef MMF_RUNTIME_PIN_H
#define MMF_RUNTIME_PIN_H

#include <linux/io_uring.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "runtime/base.h"

/* The same on every arch; missing from old headers. */
#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup	425
#define SYS_io_uring_enter	426
#define SYS_io_uring_register	427
#endif

#define RT_NR_PIPES	2
/* A pipe holds this many pages: vmsplice and reads stop there. */
#define RT_PIPE_PAGES	64

/* A ring of four entries, one request in flight at a time. */
struct rt_ring {
	int fd;
	unsigned int *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

/*
 * The pipes and the ring belong to one process: made on first use, and a
 * fork child that uses them makes its own (its parent's stay open in it
 * but hold the parent's pages), so each process's model knows every page
 * in them.
 */
struct rt_pins {
	pid_t owner;
	pthread_mutex_t lock;	/* the ring is not for two threads at once */
	int pipes[RT_NR_PIPES][2];
	int ring_err;		/* the ring's setup: 1 before it, 0 or -errno after */
	struct rt_ring ring;
};

static inline void rt_pins_own(struct rt_pins *st)
{
	if (st->owner == getpid())
		return;
	memset(st, 0, sizeof(*st));
	st->owner = getpid();
	pthread_mutex_init(&st->lock, NULL);
	for (int p = 0; p < RT_NR_PIPES; p++)
		st->pipes[p][0] = st->pipes[p][1] = -1;
	st->ring.fd = -1;
	st->ring_err = 1;
}

/* Pipe p of this process, made with room for RT_PIPE_PAGES pages. */
static inline long rt_pipe(struct rt_pins *st, int p, long psz)
{
	rt_pins_own(st);
	if (st->pipes[p][0] < 0) {
		if (pipe2(st->pipes[p], O_CLOEXEC | O_NONBLOCK))
			return -errno;
		fcntl(st->pipes[p][1], 1031 /* F_SETPIPE_SZ */, RT_PIPE_PAGES * psz);
	}
	return 0;
}

/* vmsplice of [addr, addr + len) into pipe p, never SPLICE_F_GIFT. */
static inline long rt_vmsplice(struct rt_pins *st, int p, void *addr, long len, long psz)
{
	struct iovec iov = { addr, len < RT_PIPE_PAGES * psz ? len : RT_PIPE_PAGES * psz };
	long r = rt_pipe(st, p, psz);

	if (r)
		return r;
	return rt_ret(syscall(SYS_vmsplice, st->pipes[p][1], &iov, 1L, 0x2 /* SPLICE_F_NONBLOCK */));
}

/*
 * Read up to len bytes out of pipe p, each whole page read handed to
 * seen(k, page, arg) when that is given.
 */
static inline long rt_pipe_read(struct rt_pins *st, int p, long len, long psz,
				void (*seen)(int k, const uint64_t *pg, void *arg), void *arg)
{
	long want = len < RT_PIPE_PAGES * psz ? len : RT_PIPE_PAGES * psz, got = 0;
	long r = rt_pipe(st, p, psz);
	char *buf;

	if (r)
		return r;
	buf = aligned_alloc(psz, want);
	if (!buf)
		return -ENOMEM;
	while (got < want) {
		r = read(st->pipes[p][0], buf + got, want - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += r;
	}
	for (long k = 0; seen && k < got / psz; k++)
		seen(k, (const uint64_t *)(buf + k * psz), arg);
	free(buf);
	return got;
}

static inline long rt_ring_setup(struct rt_ring *rg)
{
	struct io_uring_params p;
	char *sq, *cq;
	long sz;

	memset(&p, 0, sizeof(p));
	rg->fd = syscall(SYS_io_uring_setup, 4, &p);
	if (rg->fd < 0)
		return -errno;
	sz = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (sz < (long)(p.sq_off.array + p.sq_entries * sizeof(unsigned int)))
		sz = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	sq = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, rg->fd,
		  IORING_OFF_SQ_RING);
	cq = p.features & IORING_FEAT_SINGLE_MMAP ? sq :
	     mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, rg->fd,
		  IORING_OFF_CQ_RING);
	rg->sqes = mmap(NULL, p.sq_entries * sizeof(*rg->sqes), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_POPULATE, rg->fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || rg->sqes == MAP_FAILED)
		return -ENOMEM;
	rg->sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	rg->sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	rg->sq_array = (unsigned int *)(sq + p.sq_off.array);
	rg->cq_head = (unsigned int *)(cq + p.cq_off.head);
	rg->cq_tail = (unsigned int *)(cq + p.cq_off.tail);
	rg->cq_mask = (unsigned int *)(cq + p.cq_off.ring_mask);
	rg->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	return 0;
}

/* This process's ring, set up on first use; 0 or its setup's -errno. */
static inline long rt_ring(struct rt_pins *st)
{
	rt_pins_own(st);
	if (st->ring_err == 1)
		st->ring_err = rt_ring_setup(&st->ring);
	return st->ring_err;
}

/* Unregister the old buffer, register [addr, addr + len) as buffer 0. */
static inline long rt_ring_register(struct rt_pins *st, void *addr, long len)
{
	struct iovec iov = { addr, len };
	long r = rt_ring(st);

	if (r)
		return r;
	pthread_mutex_lock(&st->lock);
	syscall(SYS_io_uring_register, st->ring.fd, IORING_UNREGISTER_BUFFERS, NULL, 0);
	r = rt_ret(syscall(SYS_io_uring_register, st->ring.fd, IORING_REGISTER_BUFFERS, &iov, 1));
	pthread_mutex_unlock(&st->lock);
	return r;
}

/* READ_FIXED (file fd at off into memory) or WRITE_FIXED, with buffer 0. */
static inline long rt_ring_rw(struct rt_pins *st, int write, int fd, void *addr, long len,
			      off_t off)
{
	struct rt_ring *rg = &st->ring;
	struct io_uring_sqe *sqe;
	unsigned int tail, head;
	long r = rt_ring(st);

	if (r)
		return r;
	if (fd < 0)
		return -EBADF;
	pthread_mutex_lock(&st->lock);
	tail = *rg->sq_tail;
	sqe = &rg->sqes[tail & *rg->sq_mask];
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = write ? IORING_OP_WRITE_FIXED : IORING_OP_READ_FIXED;
	sqe->fd = fd;
	sqe->addr = (uintptr_t)addr;
	sqe->len = len;
	sqe->off = off;
	rg->sq_array[tail & *rg->sq_mask] = tail & *rg->sq_mask;
	__atomic_store_n(rg->sq_tail, tail + 1, __ATOMIC_RELEASE);
	do
		r = syscall(SYS_io_uring_enter, rg->fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0L);
	while (r < 0 && errno == EINTR);
	r = r < 0 ? -errno : -EAGAIN;
	head = *rg->cq_head;
	if (head != __atomic_load_n(rg->cq_tail, __ATOMIC_ACQUIRE)) {
		r = rg->cqes[head & *rg->cq_mask].res;
		__atomic_store_n(rg->cq_head, head + 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&st->lock);
	return r;
}

/* O_DIRECT on file fd for the one call: the flag is per open file. */
static inline long rt_dio(int write, int fd, void *addr, long len, off_t off)
{
	long r;
	int fl;

	if (fd < 0)
		return -EBADF;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_DIRECT))
		return -errno;
	r = rt_ret(write ? pwrite(fd, addr, len, off) : pread(fd, addr, len, off));
	fcntl(fd, F_SETFL, fl);
	return r;
}

/* process_vm_readv/writev of len bytes with this process (c < 0) or child c. */
static inline long rt_pvm(const pid_t *kids, const int *pidfds, int c, int write, void *local,
			  void *remote, long len)
{
	struct iovec l = { local, len }, rm = { remote, len };
	pid_t pid = c < 0 ? getpid() : kids[c];

	if (c >= 0 && (pid <= 0 || pidfds[c] < 0))
		return -ESRCH;
	return rt_ret(syscall(write ? SYS_process_vm_writev : SYS_process_vm_readv, pid, &l, 1L,
			      &rm, 1L, 0L));
}

#endif
