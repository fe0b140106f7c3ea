// SPDX-License-Identifier: GPL-2.0
/*
 * A minimal io_uring on the raw system calls: setup, the rings mapped by
 * hand, one request submitted and waited for at a time. No liburing: the
 * guests' binary is static and cross-built, and one synchronous request is
 * all the pin calls need.
 */
#include <errno.h>
#include <linux/io_uring.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "exec/uring.h"

#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup	425
#define SYS_io_uring_enter	426
#define SYS_io_uring_register	427
#endif

int mmf_uring_init(struct mmf_uring *u, unsigned int entries)
{
	struct io_uring_params p;
	void *sq, *cq, *sqes;

	memset(&p, 0, sizeof(p));
	memset(u, 0, sizeof(*u));
	u->fd = syscall(SYS_io_uring_setup, entries, &p);
	if (u->fd < 0)
		return -errno;
	u->sq_sz = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	u->cq_sz = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	u->sqes_sz = p.sq_entries * sizeof(struct io_uring_sqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP)
		u->sq_sz = u->cq_sz = MAX(u->sq_sz, u->cq_sz);
	sq = mmap(NULL, u->sq_sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, u->fd,
		  IORING_OFF_SQ_RING);
	cq = sq;
	if (sq != MAP_FAILED && !(p.features & IORING_FEAT_SINGLE_MMAP))
		cq = mmap(NULL, u->cq_sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
			  u->fd, IORING_OFF_CQ_RING);
	sqes = mmap(NULL, u->sqes_sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, u->fd,
		    IORING_OFF_SQES);
	u->sq_ptr = sq;
	u->cq_ptr = cq;
	u->sqes = sqes;
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED) {
		int e = -errno;

		mmf_uring_exit(u);
		return e;
	}
	u->sq_tail = (unsigned int *)((char *)sq + p.sq_off.tail);
	u->sq_mask = (unsigned int *)((char *)sq + p.sq_off.ring_mask);
	u->sq_array = (unsigned int *)((char *)sq + p.sq_off.array);
	u->cq_head = (unsigned int *)((char *)cq + p.cq_off.head);
	u->cq_tail = (unsigned int *)((char *)cq + p.cq_off.tail);
	u->cq_mask = (unsigned int *)((char *)cq + p.cq_off.ring_mask);
	u->cqes = (struct io_uring_cqe *)((char *)cq + p.cq_off.cqes);
	return 0;
}

void mmf_uring_exit(struct mmf_uring *u)
{
	if (u->sqes && u->sqes != MAP_FAILED)
		munmap(u->sqes, u->sqes_sz);
	if (u->cq_ptr && u->cq_ptr != MAP_FAILED && u->cq_ptr != u->sq_ptr)
		munmap(u->cq_ptr, u->cq_sz);
	if (u->sq_ptr && u->sq_ptr != MAP_FAILED)
		munmap(u->sq_ptr, u->sq_sz);
	if (u->fd > 0)
		close(u->fd);
	memset(u, 0, sizeof(*u));
}

/* Unregister any buffer, then register [addr, addr + len) as buffer 0. */
int mmf_uring_register(struct mmf_uring *u, void *addr, size_t len)
{
	struct iovec iov = { addr, len };

	syscall(SYS_io_uring_register, u->fd, IORING_UNREGISTER_BUFFERS, NULL, 0);
	if (syscall(SYS_io_uring_register, u->fd, IORING_REGISTER_BUFFERS, &iov, 1))
		return -errno;
	return 0;
}

long mmf_uring_rw_fixed(struct mmf_uring *u, bool write, int fd, void *addr, size_t len,
			off_t off)
{
	unsigned int tail = *u->sq_tail, head;
	struct io_uring_sqe *sqe = &u->sqes[tail & *u->sq_mask];
	struct io_uring_cqe *cqe;
	long r;

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = write ? IORING_OP_WRITE_FIXED : IORING_OP_READ_FIXED;
	sqe->fd = fd;
	sqe->addr = (uintptr_t)addr;
	sqe->len = len;
	sqe->off = off;
	sqe->buf_index = 0;
	u->sq_array[tail & *u->sq_mask] = tail & *u->sq_mask;
	__atomic_store_n(u->sq_tail, tail + 1, __ATOMIC_RELEASE);
	do {
		r = syscall(SYS_io_uring_enter, u->fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0);
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	head = *u->cq_head;
	if (head == __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE))
		return -EAGAIN;
	cqe = &u->cqes[head & *u->cq_mask];
	r = cqe->res;
	__atomic_store_n(u->cq_head, head + 1, __ATOMIC_RELEASE);
	return r;
}
