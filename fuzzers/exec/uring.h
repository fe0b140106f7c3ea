/* SPDX-License-Identifier: GPL-2.0 */
/* The pin calls' synchronous io_uring, on liburing (uring.c). */
#ifndef MMF_URING_H
#define MMF_URING_H

#include <liburing.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct mmf_uring {
	struct io_uring ring;
	bool up;
};

/* 0 or -errno. */
int mmf_uring_init(struct mmf_uring *u, unsigned int entries);
void mmf_uring_exit(struct mmf_uring *u);
int mmf_uring_register(struct mmf_uring *u, void *addr, size_t len);
/* READ_FIXED or WRITE_FIXED with buffer 0; the CQE's result (bytes or -errno). */
long mmf_uring_rw_fixed(struct mmf_uring *u, bool write, int fd, void *addr, size_t len,
			off_t off);

#endif
