// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "stressors/canary.h"

#define WORDS	(MMF_CANARY_CHUNK / sizeof(uint64_t))

/* Each word names its own address: a moved or stale page shows too. */
static uint64_t pattern(const struct mmf_canary *c, const uint64_t *w)
{
	return ((uintptr_t)w * 0x9e3779b97f4a7c15ull) ^ c->seed;
}

static void fill(struct mmf_canary *c, uint64_t *chunk)
{
	for (size_t i = 0; i < WORDS; i++)
		chunk[i] = pattern(c, &chunk[i]);
}

void mmf_canary_init(struct mmf_canary *c, uint64_t seed)
{
	memset(c, 0, sizeof(*c));
	c->seed = seed | 1;	/* never 0: a zeroed word never matches */
	for (int i = 0; i < MMF_CANARY_CHUNKS; i++) {
		c->chunk[i] = mmf_xmalloc(MMF_CANARY_CHUNK);
		fill(c, c->chunk[i]);
	}
}

void mmf_canary_free(struct mmf_canary *c)
{
	for (int i = 0; i < MMF_CANARY_CHUNKS; i++)
		free(c->chunk[i]);
	memset(c, 0, sizeof(*c));
}

/* The page's /proc/self/pagemap entry, described; "" when unreadable. */
static void pagemap_of(uintptr_t page, long pg, struct strbuf *sb)
{
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	uint64_t e;

	if (fd < 0)
		return;
	if (pread(fd, &e, sizeof(e), page / pg * sizeof(e)) == sizeof(e))
		mmf_sb_printf(sb, "pagemap: %#018llx (%s%s%s%s)\n", (unsigned long long)e,
			  e >> 63 & 1 ? "present" : e >> 62 & 1 ? "swapped" : "neither present nor swapped",
			  e >> 56 & 1 ? ", exclusive" : "", e >> 55 & 1 ? ", soft-dirty" : "",
			  e >> 61 & 1 ? ", file or shared anon" : "");
	close(fd);
}

/* What is wrong in chunk, page by page, into body; true if all bad words are 0. */
static bool describe(const struct mmf_canary *c, const uint64_t *chunk, struct strbuf *body)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t last_page = 0;
	size_t bad = 0, zero = 0;

	for (size_t i = 0; i < WORDS; i++) {
		uintptr_t page = (uintptr_t)&chunk[i] & ~(uintptr_t)(pg - 1);

		if (chunk[i] == pattern(c, &chunk[i]))
			continue;
		bad++;
		zero += !chunk[i];
		if (page == last_page)
			continue;
		last_page = page;
		mmf_sb_printf(body, "page %#lx: word %#lx is 0x%016llx, not 0x%016llx\n",
			  (unsigned long)page, (unsigned long)(uintptr_t)&chunk[i],
			  (unsigned long long)chunk[i],
			  (unsigned long long)pattern(c, &chunk[i]));
		pagemap_of(page, pg, body);
	}
	mmf_sb_printf(body, "%zu of %zu words of the 64 KiB chunk at %p changed, %zu of them to 0\n",
		  bad, WORDS, (const void *)chunk, zero);
	return bad == zero;
}

int mmf_canary_check(struct mmf_canary *c, char *title, size_t n, struct strbuf *body)
{
	int found = 0;

	c->checks++;
	for (int i = 0; i < MMF_CANARY_CHUNKS; i++) {
		uint64_t *chunk = c->chunk[i];
		size_t w = 0;

		while (w < WORDS && chunk[w] == pattern(c, &chunk[w]))
			w++;
		if (w == WORDS)
			continue;
		if (!found)
			mmf_sb_printf(body, "The stress runner's heap canary (check %lu) changed while "
				  "nothing of ours wrote it:\n", c->checks);
		snprintf(title, n, "DATA CORRUPTION: %s in the stress runner's heap",
			 describe(c, chunk, body) ? "zeroed words" : "changed words");
		fill(c, chunk);
		found = 1;
	}
	return found;
}

void mmf_canary_zap(struct mmf_canary *c)
{
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t page = ((uintptr_t)c->chunk[0] + 2 * pg - 1) & ~(uintptr_t)(pg - 1);

	madvise((void *)page, pg, MADV_DONTNEED);
}
