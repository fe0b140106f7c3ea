/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The accounting oracle's counters (oracle/results.c has the errno
 * rules and the VmLck check after lock calls):
 *
 * - System-wide, from /proc/meminfo, before a program and after all its
 *   processes are gone: what the program held must be given back. Read
 *   after draining the per-CPU LRU and mlock batches and folding the per-CPU
 *   vmstat deltas, so that a correct kernel is exact up to other load; a
 *   counter up by more than its tolerance is read again a few times, and
 *   reported only if every reading is still up and the readings agree (a
 *   busy machine moves them: then nothing can be told). Other processes'
 *   locked memory (their VmLck) is taken off both sides.
 * - Per process, at the end of a program: /proc/self/status against
 *   /proc/self/smaps_rollup (RSS counters against a page table walk) and
 *   VmLck against the model.
 *
 * Titles hold no numbers: "ACCOUNTING: Mlocked grew after the program exited".
 * Test hook: MMFUZZ_ACCT_SKEW=Counter:kB[+Counter:kB...] adds kB to every
 * reading of that counter taken after the program (meminfo) or at its end
 * (status).
 */
#ifndef MMF_ACCOUNTING_H
#define MMF_ACCOUNTING_H

#include <stdbool.h>
#include <stdint.h>

#include "oracle/shadow.h"
#include "util/util.h"

enum mmf_acct_counter {
	MMF_ACCT_MLOCKED,
	MMF_ACCT_UNEVICTABLE,
	MMF_ACCT_NR
};

struct mmf_acct_sys {
	bool ok;		/* read while nothing moved */
	long kb[MMF_ACCT_NR];
	long others_kb;		/* VmLck of all other processes */
	uint64_t at_ns;		/* when (mmf_now_ns) */
};

/* How long a reading after one program serves as the next one's before. */
#define MMF_ACCT_BASE_NS	(1000ull * 1000 * 1000)

#define MMF_ACCT_REREADS	4

/*
 * The test hook from an option: check spec (Counter:kB[+Counter:kB...],
 * counters of meminfo or status) and set MMFUZZ_ACCT_SKEW; dies with
 * "what: ..." on a bad one.
 */
void mmf_acct_skew_set(const char *what, const char *spec);

/*
 * Drain, refresh and read /proc/meminfo and the other processes' VmLck,
 * retried while either moves during the reading (ok false if it always
 * did).
 */
void mmf_acct_sys_read(struct mmf_acct_sys *s);

/*
 * The reading before a program: base itself when an earlier check left it
 * at most MMF_ACCT_BASE_NS ago, else read now. Reading the counters costs
 * a drain on every CPU and two passes over /proc, as much as a short
 * program under TCG; between one program's end and the next's start only
 * the loop runs, and other processes' locks are taken off either way.
 */
void mmf_acct_sys_base(struct mmf_acct_sys *base);

/*
 * Pure: the counters after (n readings, the first one and its rereads)
 * against before. Appends one report per counter that grew beyond its
 * tolerance in every reading, by a stable amount; returns how many.
 */
int mmf_acct_sys_compare(const struct mmf_acct_sys *before, const struct mmf_acct_sys *after,
			 int n, struct strbuf *out);

/* Whether the first reading after needs rereads (some counter is up). */
bool mmf_acct_sys_suspect(const struct mmf_acct_sys *before, const struct mmf_acct_sys *after);

/*
 * Read after the program, reread if suspect, compare: reports into out.
 * A clean first reading (without the test hook's skew) becomes before,
 * the next program's base; after a suspect one, the next base is read
 * afresh.
 */
int mmf_acct_sys_check(struct mmf_acct_sys *before, struct strbuf *out);

/* What the process's status and smaps_rollup say, in kB (-1: unreadable). */
struct mmf_acct_proc {
	long rss_anon, vm_swap, vm_lck, rss_shmem;
	long anonymous, swap;
};

void mmf_acct_proc_read(struct mmf_acct_proc *p);

/*
 * Pure: status against smaps_rollup and VmLck against the model (locked
 * pages of the model, -1 unknown; vmlck_base_kb -1 unknown). ncpus sets the
 * tolerance of the per-CPU RSS counters.
 */
int mmf_acct_proc_compare(const struct mmf_acct_proc *p, const struct mmf_shadow *sh,
			  long psz, int ncpus, long vmlck_base_kb, struct strbuf *out);

#endif
