/* SPDX-License-Identifier: GPL-2.0 */
/* A minimal synchronous io_uring on raw system calls (uring.c). */
#ifndef MMF_URING_H
#define MMF_URING_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/util.h"

struct io_uring_sqe;
struct io_uring_cqe;

struct mmf_uring {
	int fd;
	void *sq_ptr, *cq_ptr;
	size_t sq_sz, cq_sz, sqes_sz;
	unsigned int *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

/* 0 or -errno. */
int mmf_uring_init(struct mmf_uring *u, unsigned int entries);
void mmf_uring_exit(struct mmf_uring *u);
int mmf_uring_register(struct mmf_uring *u, void *addr, size_t len);
/* READ_FIXED or WRITE_FIXED with buffer 0; the CQE's result (bytes or -errno). */
long mmf_uring_rw_fixed(struct mmf_uring *u, bool write, int fd, void *addr, size_t len,
			off_t off);

#endif
