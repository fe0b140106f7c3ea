/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Heap canaries of the stress runner: the runner's own heap lives under
 * the reclaim, swap and KSM it makes, and a heap whose chunk headers came
 * back zeroed has crashed it inside malloc. Each stress thread keeps a
 * share of its arena's heap filled with a pattern that names every word's
 * address and checks it after each step, so that a page the kernel lost
 * (zeroed, or another page's data) is a DATA CORRUPTION report with the
 * page's pagemap entry, not a segfault in malloc nobody can place.
 */
#ifndef MMF_CANARY_H
#define MMF_CANARY_H

#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

#define MMF_CANARY_CHUNKS	16
/* Below glibc's mmap threshold: the chunks come from the arena's heap. */
#define MMF_CANARY_CHUNK	(64 << 10)

struct mmf_canary {
	uint64_t seed;
	uint64_t *chunk[MMF_CANARY_CHUNKS];
	unsigned long checks;
};

/* Allocate and fill, in the calling thread's arena. */
void mmf_canary_init(struct mmf_canary *c, uint64_t seed);
/*
 * 0 if every word holds its pattern; else 1, the report's title and body
 * in title/body (a zeroed page, or changed words: where, how many, the
 * page's pagemap entry), and the chunks filled again.
 */
int mmf_canary_check(struct mmf_canary *c, char *title, size_t n, struct strbuf *body);
void mmf_canary_free(struct mmf_canary *c);
/* Test hook: drop one canary page (MADV_DONTNEED), as a kernel losing it would. */
void mmf_canary_zap(struct mmf_canary *c);

#endif
