/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/self/pagemap: which pages of a range are really swapped out, and
 * the flags oracle: what the kernel says of pages this process
 * just wrote, against what it guarantees.
 */
#ifndef MMF_PAGEMAP_H
#define MMF_PAGEMAP_H

#include <stdbool.h>
#include <stdint.h>

#define MMF_PM_PRESENT		(1ull << 63)
#define MMF_PM_SWAP		(1ull << 62)
#define MMF_PM_EXCLUSIVE	(1ull << 56)
#define MMF_PM_SOFT_DIRTY	(1ull << 55)
#define MMF_PM_UFFD_WP		(1ull << 57)
#define MMF_PM_PFN		((1ull << 55) - 1)	/* when present; 0 unless root */

/* Open /proc/self/pagemap of the calling process; -1 on error. */
int mmf_pagemap_open(void);
/* Number of swapped pages in [addr, addr + n pages), -1 on error. */
int mmf_pagemap_swapped(int fd, const void *addr, long psz, int n);
/* The pagemap entry of one page, 0 on error. */
uint64_t mmf_pagemap_entry(int fd, const void *addr, long psz);

/* Entries of n pages from addr into ent; how many were read, -1 on error.
 * Test hook: MMFUZZ_PAGEMAP_FLIP=BIT flips that bit of every entry read.
 */
int mmf_pagemap_read(int fd, const void *addr, long psz, int n, uint64_t *ent);

/* What to assert of a page this process just wrote. */
#define MMF_PMCHK_EXCLUSIVE	0x1	/* present: mapped by us alone (no KSM) */
#define MMF_PMCHK_SOFT_DIRTY	0x2	/* the kernel tracks soft-dirty */
#define MMF_PMCHK_NO_UFFD_WP	0x4	/* the program never used userfaultfd */

/*
 * Pure: the title of what is wrong with the entry of a page this process
 * has just written, its own (private) copy; NULL when nothing is.
 */
const char *mmf_pagemap_judge_written(uint64_t ent, unsigned int checks);

/*
 * Pure: whether the entry maps the shared zero page (zero_pfn). Since
 * 6.12 a split of an anonymous large folio maps its zero-filled subpages
 * to it (mm/huge_memory.c remap_page(..., RMP_USE_SHARED_ZEROPAGE), and
 * the THP shrinker splits underused ones), so a page written with zeros
 * may show it, not exclusive, right after the write: the content is still
 * right (the data oracle checks that), and no flag of it is asserted.
 */
bool mmf_pagemap_shared_zero(uint64_t ent, uint64_t zero_pfn);
/*
 * The shared zero page's PFN as this process sees it (0 if PFNs are
 * hidden), UINT64_MAX if read faults do not map it here.
 */
uint64_t mmf_pagemap_zero_pfn(int fd, long psz);

#endif
