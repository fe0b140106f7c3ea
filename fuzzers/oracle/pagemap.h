/* SPDX-License-Identifier: GPL-2.0 */
/* Which pages of a range are really swapped out, from /proc/self/pagemap. */
#ifndef MMF_PAGEMAP_H
#define MMF_PAGEMAP_H

#include <stdint.h>

#define MMF_PM_PRESENT		(1ull << 63)
#define MMF_PM_SWAP		(1ull << 62)
#define MMF_PM_EXCLUSIVE	(1ull << 56)

/* Open /proc/self/pagemap of the calling process; -1 on error. */
int mmf_pagemap_open(void);
/* Number of swapped pages in [addr, addr + n pages), -1 on error. */
int mmf_pagemap_swapped(int fd, const void *addr, long psz, int n);
/* The pagemap entry of one page, 0 on error. */
uint64_t mmf_pagemap_entry(int fd, const void *addr, long psz);

#endif
