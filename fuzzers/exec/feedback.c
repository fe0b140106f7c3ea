// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cover/pagestate.h"
#include "exec/feedback.h"
#include "oracle/pagemap.h"
#include "util/util.h"

#define PM_FILE		(1ull << 61)	/* a file page or shared anonymous */
#define KPF_MLOCKED	33
#define KPF_THP		22


/* The counters whose moves say what reclaim, swap and THP did. */
static const char *const vmstat_keys[MMF_NR_VMSTAT] = {
	"pswpin", "pswpout", "pgmajfault", "pgfault", "pgsteal_direct", "pgsteal_kswapd",
	"pgscan_direct", "pgactivate", "pgdeactivate", "pglazyfree", "pglazyfreed",
	"workingset_refault_anon", "swap_ra", "thp_fault_alloc", "thp_split_page",
	"thp_swpout", "thp_swpout_fallback", "pgmigrate_success", "compact_stall",
	"unevictable_pgs_mlocked", "unevictable_pgs_munlocked", "ksm_swpin_copy", "cow_ksm",
	"zswpout",
};

static uint32_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return (uint32_t)(x ^ (x >> 29));
}

static void hit(struct mmf_cover *c, uint64_t key)
{
	uint8_t *e = &c->edges[mix(key) & (MMF_COVER_EDGES - 1)];

	if (*e != 0xff)
		(*e)++;
}

int mmf_page_states(int pagemap, int kpageflags, const void *addr, long psz, int n,
		    uint8_t *states)
{
	uint64_t ent[MMF_STATE_PAGES];

	n = n > MMF_STATE_PAGES ? MMF_STATE_PAGES : n;
	n = pagemap < 0 ? 0 : mmf_pagemap_read(pagemap, addr, psz, n, ent);
	for (int i = 0; i < n; i++) {
		uint64_t pfn = ent[i] & MMF_PM_PFN, kf;
		uint8_t s = 0;

		s |= ent[i] & MMF_PM_PRESENT ? MMF_PST_PRESENT : 0;
		s |= ent[i] & MMF_PM_SWAP ? MMF_PST_SWAP : 0;
		s |= ent[i] & MMF_PM_EXCLUSIVE ? MMF_PST_EXCL : 0;
		s |= ent[i] & PM_FILE ? MMF_PST_FILE : 0;
		if (kpageflags >= 0 && (s & MMF_PST_PRESENT) && pfn &&
		    pread(kpageflags, &kf, sizeof(kf), pfn * sizeof(kf)) == sizeof(kf)) {
			s |= kf >> KPF_THP & 1 ? MMF_PST_THP : 0;
			s |= kf >> KPF_MLOCKED & 1 ? MMF_PST_MLOCK : 0;
		}
		states[i] = s;
	}
	return n < 0 ? 0 : n;
}

void mmf_feedback_states(struct mmf_cover *c, int call, const uint8_t *before,
			 const uint8_t *after, int n)
{
	for (int i = 0; i < n; i++)
		hit(c, 1ull << 48 | (uint64_t)call << 16 | before[i] << 8 | after[i]);
}

void mmf_feedback_result(struct mmf_cover *c, int call, int64_t res)
{
	hit(c, 2ull << 48 | (uint64_t)call << 16 | (res < 0 ? (uint16_t)-res : 0));
}

void mmf_vmstat_read(uint64_t v[MMF_NR_VMSTAT])
{
	char *s = mmf_read_file("/proc/vmstat", NULL);

	memset(v, 0, MMF_NR_VMSTAT * sizeof(*v));
	for (char *line = s; line && *line;) {
		char *sp = strchr(line, ' '), *nl = strchr(line, '\n');

		if (sp && (!nl || sp < nl)) {
			for (int k = 0; k < MMF_NR_VMSTAT; k++)
				if ((size_t)(sp - line) == strlen(vmstat_keys[k]) &&
				    !strncmp(line, vmstat_keys[k], sp - line))
					v[k] = strtoull(sp + 1, NULL, 10);
		}
		line = nl ? nl + 1 : NULL;
	}
	free(s);
}

void mmf_feedback_vmstat(struct mmf_cover *c, const uint64_t before[MMF_NR_VMSTAT],
			 const uint64_t after[MMF_NR_VMSTAT])
{
	for (int k = 0; k < MMF_NR_VMSTAT; k++) {
		uint64_t d = after[k] > before[k] ? after[k] - before[k] : 0;
		int bucket = d ? 64 - __builtin_clzll(d) : 0;

		if (d)
			hit(c, 3ull << 48 | (uint64_t)k << 8 | bucket);
	}
}
