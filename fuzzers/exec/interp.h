/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the executor: state of one running program and its helpers. */
#ifndef MMF_INTERP_H
#define MMF_INTERP_H

#include <pthread.h>
#include <sys/types.h>

#include "exec/exec.h"
#include "oracle/shadow.h"
#include "util/util.h"

struct interp {
	const struct mmf_prog *p;
	const struct mmf_exec_opts *o;
	struct mmf_shadow *sh;
	pthread_mutex_t lock;	/* guards sh between the main line and threads */
	char *arena;
	long psz;
	int outfd;
	int pagemap;
	int files[MMF_NR_FILES];
	pid_t kids[MMF_NR_CHILDREN];
	int pidfds[MMF_NR_CHILDREN];
	pthread_t threads[MMF_MAX_BLOCKS];
	int nr_threads;
	int join_pipe[2];	/* children exit when its write end closes */
	int group_first;	/* first block of the open group, -1 none */
	int inflight;		/* blocks opened in the group */
	long vmlck_base;	/* VmLck (kB) before the first lock call */
	struct mmf_uffd *uffd;	/* exec/uffd.c: the process's uffd, NULL none */
	unsigned int pm_checks;	/* pagemap flags oracle: MMF_PMCHK_* */
};

#define VMLCK_UNREAD	(-2)	/* not read yet; -1 is unreadable */

/* Arena chosen by mmf_exec_init(). */
extern char *mmf_arena;
extern long mmf_psz;

static inline char *page_addr(const struct interp *in, int idx)
{
	return in->arena + (long)idx * in->psz;
}

/* Run one call's system call(s); >= 0 or -errno (interp.c: reads). */
typedef long (*mmf_run_fn)(struct interp *in, const struct mmf_stmt *s, int si);
extern const mmf_run_fn mmf_exec_calls[MMF_NR_CALLS];

/* Touch pages [idx, idx + n) with fn, stopping at the first fault;
 * returns the number of pages done.
 */
long guarded_pages(struct interp *in, int idx, int n, int si,
		   void (*fn)(struct interp *in, int idx, int si));
void page_fill(struct interp *in, int idx, int si);
void page_verify(struct interp *in, int idx, int si);

/* Send a report (title line, then body) to the runner. */
void emit_report(struct interp *in, const char *text, size_t len);
/*
 * Replace file slot f with fd (< 0: the errno of the call that made it),
 * truncated to bytes first unless 0; 0 or -errno, closing fd on failure.
 */
long mmf_exec_set_file(struct interp *in, int f, off_t bytes, int fd);

#endif
