// SPDX-License-Identifier: GPL-2.0
/*
 * The pin calls' io_uring, through liburing: one registered buffer, one
 * request submitted and waited for at a time.
 */
#include <errno.h>
#include <string.h>
#include <sys/uio.h>

#include "exec/uring.h"

int mmf_uring_init(struct mmf_uring *u, unsigned int entries)
{
	int r;

	memset(u, 0, sizeof(*u));
	r = io_uring_queue_init(entries, &u->ring, 0);
	if (r < 0)
		return r;
	u->up = true;
	return 0;
}

void mmf_uring_exit(struct mmf_uring *u)
{
	if (u->up)
		io_uring_queue_exit(&u->ring);
	memset(u, 0, sizeof(*u));
}

/* Unregister any buffer, then register [addr, addr + len) as buffer 0. */
int mmf_uring_register(struct mmf_uring *u, void *addr, size_t len)
{
	struct iovec iov = { addr, len };

	io_uring_unregister_buffers(&u->ring);
	return io_uring_register_buffers(&u->ring, &iov, 1);
}

long mmf_uring_rw_fixed(struct mmf_uring *u, bool write, int fd, void *addr, size_t len,
			off_t off)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	struct io_uring_cqe *cqe;
	long r;

	if (!sqe)
		return -EAGAIN;
	if (write)
		io_uring_prep_write_fixed(sqe, fd, addr, len, off, 0);
	else
		io_uring_prep_read_fixed(sqe, fd, addr, len, off, 0);
	do {
		r = io_uring_submit_and_wait(&u->ring, 1);
	} while (r == -EINTR);
	if (r < 0)
		return r;
	if (io_uring_peek_cqe(&u->ring, &cqe))
		return -EAGAIN;
	r = cqe->res;
	io_uring_cqe_seen(&u->ring, cqe);
	return r;
}
