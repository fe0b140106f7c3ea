// SPDX-License-Identifier: GPL-2.0
/*
 * The uffd family (runtime/uffd.h): the userfaultfd ioctls on the
 * process's uffd, made on first use unless uffd_create did, whose handler
 * thread serves its faults. interp.c drops it in a fork child and closes
 * it at the program's end.
 */
#include "exec/calls.h"
#include "runtime/uffd.h"

long mmf_exec_uffd_create(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return rt_uffd_new(&in->uffd, s->args[0], s->args[1], in->psz);
}

long mmf_exec_uffd_register(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);

	return rt_uffd_register(&in->uffd, addr, len, s->args[3], in->psz);
}

long mmf_exec_uffd_unregister(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);

	return rt_uffd_unregister(&in->uffd, addr, len, in->psz);
}

/* The statement a uffd_copy works for, for the runtime's callback. */
struct copy_src {
	const struct mmf_interp *in;
	int idx, tag;
};

/* The source holds what write(tag) would store at each destination. */
static uint64_t copy_word(int i, void *arg)
{
	const struct copy_src *c = arg;

	return mmf_shadow_word(c->in->sh, c->tag, c->idx + i);
}

long mmf_exec_uffd_copy(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	struct copy_src c = { in, 0, s->args[3] };
	int n;

	mmf_stmt_range(s, &c.idx, &n);
	return rt_uffd_copy(&in->uffd, mmf_page_addr(in, c.idx), n, s->args[4], in->psz,
			    copy_word, &c);
}

static long fill(struct mmf_interp *in, const struct mmf_stmt *s, unsigned long req)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);

	return rt_uffd_fill(&in->uffd, req, addr, len, s->args[3], in->psz);
}

long mmf_exec_uffd_zeropage(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return fill(in, s, RT_UFFDIO_ZEROPAGE);
}

long mmf_exec_uffd_writeprotect(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long len;
	char *addr = mmf_range_addr(in, s, &len);

	return rt_uffd_writeprotect(&in->uffd, addr, len, s->args[3], in->psz);
}

long mmf_exec_uffd_continue(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return fill(in, s, RT_UFFDIO_CONTINUE);
}

long mmf_exec_uffd_poison(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return fill(in, s, RT_UFFDIO_POISON);
}

long mmf_exec_uffd_move(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	int dst, src, n;

	mmf_uffd_move_range(s, &dst, &src, &n);
	return rt_uffd_move(&in->uffd, mmf_page_addr(in, dst), mmf_page_addr(in, src),
			    (long)n * in->psz, s->args[5], in->psz);
}
