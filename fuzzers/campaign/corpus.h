/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimizing an AFL++ engine's queue in afl-cmin's manner: for each edge
 * any input reached, the smallest input that reached it is kept. The edges
 * of every program the proxies ran are on disk already (OUT/vm-N/edges/,
 * by program hash), so nothing runs again.
 */
#ifndef MMF_CORPUS_H
#define MMF_CORPUS_H

#include <stddef.h>

struct mmf_corpus_stats {
	int inputs;		/* distinct programs in the queues */
	int unknown;		/* of them, with no edges on record: kept */
	int kept;
	int edges;		/* distinct edges of the inputs */
};

/*
 * The queues of the campaign OUTs in from[] (NULL-terminated) into the new
 * or empty directory to, in the byte form, one file per program. 0, or -1
 * with err (nothing is written into a directory that holds files).
 */
int mmf_corpus_minimize(const char *const *from, const char *to, struct mmf_corpus_stats *st,
			char *err, size_t n);

#endif
