// SPDX-License-Identifier: GPL-2.0
/*
 * The uffd family: the userfaultfd ioctls on the process's uffd (exec/uffd.c
 * makes it, on first use unless uffd_create did, and serves its faults).
 */
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "exec/calls.h"
#include "exec/uffd.h"

/* UAPI newer than Debian 12's headers (6.1): the ioctls' own argument layout. */
struct uffdio_poison_ {
	struct uffdio_range range;
	uint64_t mode;
	int64_t updated;
};

struct uffdio_move_ {
	uint64_t dst, src, len, mode;
	int64_t move;
};

#define UFFDIO_POISON_		_IOWR(UFFDIO, 0x08, struct uffdio_poison_)
#define UFFDIO_MOVE_		_IOWR(UFFDIO, 0x05, struct uffdio_move_)

long mmf_exec_uffd_create(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return mmf_uffd_new(in, s->args[0], s->args[1]);
}

long mmf_exec_uffd_register(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	struct uffdio_register reg = { .mode = s->args[3] };
	long fd = mmf_uffd_fd(in), len;

	if (fd < 0)
		return fd;
	reg.range.start = (uintptr_t)mmf_range_addr(in, s, &len);
	reg.range.len = len;
	return rt_ret(mmf_uffd_ioctl(fd, UFFDIO_REGISTER, &reg));
}

long mmf_exec_uffd_unregister(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	struct uffdio_range r;
	long fd = mmf_uffd_fd(in), len;

	if (fd < 0)
		return fd;
	r.start = (uintptr_t)mmf_range_addr(in, s, &len);
	r.len = len;
	return rt_ret(mmf_uffd_ioctl(fd, UFFDIO_UNREGISTER, &r));
}

/*
 * The filling ioctls report the bytes done before the first failure, or
 * -errno: the result is the pages done when there are any (what the model
 * needs, as for write), else -errno.
 */
static long pages_done(struct mmf_interp *in, int r, int64_t done)
{
	if (done > 0)
		return done / in->psz;
	if (r < 0)
		return done < 0 ? done : -errno;
	return 0;
}

long mmf_exec_uffd_copy(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	struct uffdio_copy c = { .mode = s->args[4] };
	long fd = mmf_uffd_fd(in), len, words = in->psz / 8, res;
	int idx, n, r;
	uint64_t *buf;

	if (fd < 0)
		return fd;
	mmf_stmt_range(s, &idx, &n);
	len = (long)n * in->psz;
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return -errno;
	/* The source holds what write(tag) would store at each destination. */
	for (int i = 0; i < n; i++) {
		uint64_t w = mmf_shadow_word(in->sh, s->args[3], idx + i);

		for (long k = 0; k < words; k++)
			buf[i * words + k] = w;
	}
	c.dst = (uintptr_t)mmf_page_addr(in, idx);
	c.src = (uintptr_t)buf;
	c.len = len;
	r = mmf_uffd_ioctl(fd, UFFDIO_COPY, &c);
	res = pages_done(in, r, c.copy);
	munmap(buf, len);
	return res;
}

long mmf_exec_uffd_zeropage(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	struct uffdio_zeropage z = { .mode = s->args[3] };
	long fd = mmf_uffd_fd(in), len;
	int r;

	if (fd < 0)
		return fd;
	z.range.start = (uintptr_t)mmf_range_addr(in, s, &len);
	z.range.len = len;
	r = mmf_uffd_ioctl(fd, UFFDIO_ZEROPAGE, &z);
	return pages_done(in, r, z.zeropage);
}

long mmf_exec_uffd_writeprotect(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	struct uffdio_writeprotect wp = { .mode = s->args[3] };
	long fd = mmf_uffd_fd(in), len;

	if (fd < 0)
		return fd;
	wp.range.start = (uintptr_t)mmf_range_addr(in, s, &len);
	wp.range.len = len;
	return rt_ret(mmf_uffd_ioctl(fd, UFFDIO_WRITEPROTECT, &wp));
}

long mmf_exec_uffd_continue(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	struct uffdio_continue co = { .mode = s->args[3] };
	long fd = mmf_uffd_fd(in), len;
	int r;

	if (fd < 0)
		return fd;
	co.range.start = (uintptr_t)mmf_range_addr(in, s, &len);
	co.range.len = len;
	r = mmf_uffd_ioctl(fd, UFFDIO_CONTINUE, &co);
	return pages_done(in, r, co.mapped);
}

long mmf_exec_uffd_poison(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	struct uffdio_poison_ p = { .mode = s->args[3] };
	long fd = mmf_uffd_fd(in), len;
	int r;

	if (fd < 0)
		return fd;
	p.range.start = (uintptr_t)mmf_range_addr(in, s, &len);
	p.range.len = len;
	r = mmf_uffd_ioctl(fd, UFFDIO_POISON_, &p);
	return pages_done(in, r, p.updated);
}

long mmf_exec_uffd_move(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	struct uffdio_move_ mv = { .mode = s->args[5] };
	long fd = mmf_uffd_fd(in);
	int dst, src, n, r;

	if (fd < 0)
		return fd;
	mmf_uffd_move_range(s, &dst, &src, &n);
	mv.dst = (uintptr_t)mmf_page_addr(in, dst);
	mv.src = (uintptr_t)mmf_page_addr(in, src);
	mv.len = (long)n * in->psz;
	r = mmf_uffd_ioctl(fd, UFFDIO_MOVE_, &mv);
	return pages_done(in, r, mv.move);
}
