/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The access family: the program's own stores and loads, page by page up
 * to the first fault (the pattern a write stores is base.h's rt_word()).
 */
#ifndef MMF_RUNTIME_ACCESS_H
#define MMF_RUNTIME_ACCESS_H

#include <setjmp.h>
#include <stdint.h>

#include "runtime/base.h"

/*
 * fn(i, arg) for i in [0, n), stopping at the first fault: the caller's
 * SIGSEGV and SIGBUS handler (SA_NODEFER) jumps to *jump, the thread's own.
 * The number of calls that completed.
 */
static inline long rt_guarded(sigjmp_buf **jump, int n, void (*fn)(int i, void *arg), void *arg)
{
	sigjmp_buf jb;
	volatile long done = 0;

	/* No mask save: the handler runs with SA_NODEFER, and saving it
	 * would cost a system call per call.
	 */
	if (sigsetjmp(jb, 0)) {
		*jump = NULL;
		return done;
	}
	*jump = &jb;
	for (; done < n; done++)
		fn(done, arg);
	*jump = NULL;
	return done;
}

/* mincore() of a range within a slot (1024 pages at most). */
static inline long rt_mincore(void *addr, long len)
{
	unsigned char vec[1024];

	return rt_ret(syscall(SYS_mincore, addr, len, vec));
}

static inline void rt_fill_page(void *page, long psz, uint64_t w)
{
	uint64_t *pg = page;
	/* A local bound: stores through pg may alias psz otherwise. */
	long words = psz / 8;

	for (long i = 0; i < words; i++)
		pg[i] = w;
}

#endif
