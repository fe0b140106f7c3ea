/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the executor: state of one running program and its helpers. */
#ifndef MMF_INTERP_H
#define MMF_INTERP_H

#include <pthread.h>
#include <sched.h>
#include <sys/types.h>

#include "exec/exec.h"
#include "model/arena.h"
#include "oracle/shadow.h"
#include "runtime/racesync.h"
#include "runtime/uffd.h"
#include "util/util.h"

/* The racing group in progress (exec/race.c). */
struct mmf_race_state {
	int race;		/* its race statement, -1 when none */
	struct mmf_race_group g;
	int round;
	int opened, started;	/* blocks of this round: opened, and started */
	int delayed;		/* the party that spins first */
	int64_t delay_ns;
	cpu_set_t cpus;		/* the main line's CPUs before the group */
	struct race_sync *sync;	/* shared with children; mapped on first use */
};

struct mmf_interp {
	const struct mmf_prog *p;
	const struct mmf_exec_opts *o;
	struct mmf_shadow *sh;
	pthread_mutex_t lock;	/* guards sh between the main line and threads */
	const struct mmf_arena *arena;
	long psz;
	int outfd;
	int pagemap;
	int kpageflags;		/* -2: not opened yet */
	int files[MMF_NR_FILES];
	pid_t kids[MMF_NR_CHILDREN];
	int pidfds[MMF_NR_CHILDREN];
	pthread_t threads[MMF_MAX_BLOCKS];
	int nr_threads;
	int join_pipe[2];	/* children exit when its write end closes */
	int group_first;	/* first block of the open group, -1 none */
	int inflight;		/* blocks opened in the group */
	long vmlck_base;	/* VmLck (kB) before the first lock call */
	struct rt_uffd_own uffd;	/* the process's uffd (calls/uffd.c) */
	unsigned int pm_checks;	/* pagemap flags oracle: MMF_PMCHK_* */
	struct mmf_race_state race;
};

#define MMF_VMLCK_UNREAD	(-2)	/* not read yet; -1 is unreadable */

/* Arena chosen by mmf_exec_init(). */
extern struct mmf_arena mmf_arena;
extern long mmf_psz;

static inline char *mmf_page_addr(const struct mmf_interp *in, int idx)
{
	return mmf_arena_page(in->arena, idx);
}

/* The model needs its lock only while threads of the program run. */
static inline void mmf_model_lock(struct mmf_interp *in)
{
	if (in->nr_threads)
		pthread_mutex_lock(&in->lock);
}

static inline void mmf_model_unlock(struct mmf_interp *in)
{
	if (in->nr_threads)
		pthread_mutex_unlock(&in->lock);
}

/* Touch pages [idx, idx + n) with fn, stopping at the first fault;
 * returns the number of pages done.
 */
long mmf_guarded_pages(struct mmf_interp *in, int idx, int n, int si,
		       void (*fn)(struct mmf_interp *in, int idx, int si));
void mmf_page_fill(struct mmf_interp *in, int idx, int si);
void mmf_page_verify(struct mmf_interp *in, int idx, int si);

/* Send a report (title line, then body) to the runner. */
void mmf_interp_report(struct mmf_interp *in, const char *text, size_t len);

/*
 * Racing groups (exec/race.c). Begin at a race statement; each party meets
 * the others when it starts (a block) or once it opened the group's last
 * block (the main line, party 0); at the group's join, round_end says
 * whether another round follows, from the group's first block.
 */
void mmf_race_begin(struct mmf_interp *in, int ri);
void mmf_race_meet(struct mmf_interp *in, int party);
bool mmf_race_round_end(struct mmf_interp *in);
/* "mmfuzz: race round R of K, delay D ns" of the round in progress, or nothing. */
void mmf_race_describe(const struct mmf_interp *in, struct strbuf *sb);

#endif
