// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "oracle/pagemap.h"

int mmf_pagemap_open(void)
{
	return open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
}

int mmf_pagemap_swapped(int fd, const void *addr, long psz, int n)
{
	uint64_t ent[512];
	off_t off = (uintptr_t)addr / psz * sizeof(uint64_t);
	int swapped = 0;

	while (n > 0) {
		int chunk = n < 512 ? n : 512;
		ssize_t r = pread(fd, ent, chunk * sizeof(uint64_t), off);

		if (r <= 0)
			return -1;
		chunk = r / sizeof(uint64_t);
		for (int i = 0; i < chunk; i++)
			swapped += !!(ent[i] & MMF_PM_SWAP);
		off += r;
		n -= chunk;
	}
	return swapped;
}

uint64_t mmf_pagemap_entry(int fd, const void *addr, long psz)
{
	uint64_t ent;

	if (pread(fd, &ent, sizeof(ent), (uintptr_t)addr / psz * sizeof(ent)) != sizeof(ent))
		return 0;
	return ent;
}

int mmf_pagemap_read(int fd, const void *addr, long psz, int n, uint64_t *ent)
{
	const char *flip = getenv("MMFUZZ_PAGEMAP_FLIP");
	ssize_t r = pread(fd, ent, n * sizeof(*ent), (uintptr_t)addr / psz * sizeof(*ent));

	if (r < 0)
		return -1;
	n = r / sizeof(*ent);
	for (int i = 0; flip && i < n; i++)
		ent[i] ^= 1ull << (atoi(flip) & 63);
	return n;
}

/*
 * What a correct kernel guarantees right after our write of a private page,
 * with no other task of ours running: the pte maps a page of our own
 * (COW broken or reused only when exclusive), so a present page has
 * mapcount 1; a page is never both present and swapped; soft-dirty is set
 * on a written page until clear_refs, which we never write; uffd-wp only
 * where userfaultfd armed it. A page may already be swapped out again or
 * under migration (a swap-type entry): then only soft-dirty is asserted.
 */
const char *mmf_pagemap_judge_written(uint64_t ent, unsigned int checks)
{
	bool present = ent & MMF_PM_PRESENT, swap = ent & MMF_PM_SWAP;

	if (present && swap)
		return "page both present and swapped";
	if ((checks & MMF_PMCHK_EXCLUSIVE) && present && !(ent & MMF_PM_EXCLUSIVE))
		return "written page not exclusively mapped";
	if ((checks & MMF_PMCHK_SOFT_DIRTY) && (present || swap) && !(ent & MMF_PM_SOFT_DIRTY))
		return "written page not soft-dirty";
	if ((checks & MMF_PMCHK_NO_UFFD_WP) && (ent & MMF_PM_UFFD_WP))
		return "uffd-wp set without userfaultfd";
	return NULL;
}

bool mmf_pagemap_shared_zero(uint64_t ent, uint64_t zero_pfn)
{
	return (ent & MMF_PM_PRESENT) && !(ent & MMF_PM_SWAP) && (ent & MMF_PM_PFN) == zero_pfn;
}

uint64_t mmf_pagemap_zero_pfn(int fd, long psz)
{
	/*
	 * A read fault of a page never written maps the shared zero page,
	 * never exclusive; a kernel that gives a page of our own instead
	 * (some do) has none to remap to.
	 */
	volatile char *p = mmap(NULL, psz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t ent;

	if (p == MAP_FAILED)
		return UINT64_MAX;
	madvise((void *)p, psz, MADV_NOHUGEPAGE);
	(void)*p;
	ent = mmf_pagemap_entry(fd, (const void *)p, psz);
	munmap((void *)p, psz);
	return (ent & MMF_PM_PRESENT) && !(ent & MMF_PM_EXCLUSIVE) ? ent & MMF_PM_PFN : UINT64_MAX;
}
