// SPDX-License-Identifier: GPL-2.0
#include <linux/io_uring.h>
#include <sys/mman.h>

/* A minimal io_uring on raw syscalls, one request at a time. */
static unsigned int *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
static struct io_uring_sqe *sqes;
static struct io_uring_cqe *cqes;

static long ring_of(void)
{
	struct io_uring_params p = { 0 };
	char *sq, *cq;
	long sz;

	pins_own();
	if (ring_fd >= 0)
		return 0;
	ring_fd = syscall(425 /* SYS_io_uring_setup */, 4, &p);
	if (ring_fd < 0)
		return -errno;
	sz = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (sz < (long)(p.sq_off.array + p.sq_entries * sizeof(unsigned int)))
		sz = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	sq = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring_fd,
		  IORING_OFF_SQ_RING);
	cq = p.features & IORING_FEAT_SINGLE_MMAP ? sq :
	     mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring_fd,
		  IORING_OFF_CQ_RING);
	sqes = mmap(NULL, p.sq_entries * sizeof(*sqes), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_POPULATE, ring_fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED)
		return -ENOMEM;
	sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	sq_array = (unsigned int *)(sq + p.sq_off.array);
	cq_head = (unsigned int *)(cq + p.cq_off.head);
	cq_tail = (unsigned int *)(cq + p.cq_off.tail);
	cq_mask = (unsigned int *)(cq + p.cq_off.ring_mask);
	cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	return 0;
}

/* Unregister the old buffer, register [addr, addr + len(n)) as buffer 0. */
static __attribute__((unused)) long ring_register(void *addr, int n)
{
	struct iovec iov = { addr, len(n) };
	long r = ring_of();

	if (r)
		return r;
	syscall(427 /* SYS_io_uring_register */, ring_fd, IORING_UNREGISTER_BUFFERS, NULL, 0);
	return rt_ret(syscall(427, ring_fd, IORING_REGISTER_BUFFERS, &iov, 1));
}

/* READ_FIXED (file f into memory) or WRITE_FIXED; pages done. */
static __attribute__((unused)) long ring_rw(int write, void *addr, int n, int f, int fpage)
{
	struct io_uring_sqe *sqe;
	unsigned int tail, head;
	long r = ring_of();

	if (r)
		return r;
	if (files[f] < 0)
		return -EBADF;
	pthread_mutex_lock(&ring_lock);
	tail = *sq_tail;
	sqe = &sqes[tail & *sq_mask];
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = write ? IORING_OP_WRITE_FIXED : IORING_OP_READ_FIXED;
	sqe->fd = files[f];
	sqe->addr = (uintptr_t)addr;
	sqe->len = len(n);
	sqe->off = len(fpage);
	sq_array[tail & *sq_mask] = tail & *sq_mask;
	__atomic_store_n(sq_tail, tail + 1, __ATOMIC_RELEASE);
	do
		r = syscall(426 /* SYS_io_uring_enter */, ring_fd, 1, 1, IORING_ENTER_GETEVENTS,
			    NULL, 0);
	while (r < 0 && errno == EINTR);
	r = r < 0 ? -errno : -EAGAIN;
	head = *cq_head;
	if (head != __atomic_load_n(cq_tail, __ATOMIC_ACQUIRE)) {
		r = cqes[head & *cq_mask].res;
		__atomic_store_n(cq_head, head + 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&ring_lock);
	return r < 0 ? r : r / psz;
}
