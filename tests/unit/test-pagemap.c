// SPDX-License-Identifier: GPL-2.0
/*
 * The pagemap flags oracle's rules (oracle/pagemap.c) on chosen entries of
 * a page this process has just written: what a correct kernel guarantees
 * is asserted, what it may do in between (swap the page out again, migrate
 * it) is not.
 */
#include <string.h>
#include <unistd.h>

#include "oracle/pagemap.h"
#include "tap.h"

#define ALL	(MMF_PMCHK_EXCLUSIVE | MMF_PMCHK_SOFT_DIRTY | MMF_PMCHK_NO_UFFD_WP)
#define PFN	0x1234ull

static void is(uint64_t ent, unsigned int checks, const char *want)
{
	const char *got = mmf_pagemap_judge_written(ent, checks);

	CHECK(want ? got && !strcmp(got, want) : !got, "0x%016llx checks %#x: got '%s', want '%s'",
	      (unsigned long long)ent, checks, got ? got : "", want ? want : "");
}

static void test_pagemap(void)
{
	uint64_t good = MMF_PM_PRESENT | MMF_PM_EXCLUSIVE | MMF_PM_SOFT_DIRTY | PFN;
	uint64_t swapped = MMF_PM_SWAP | MMF_PM_SOFT_DIRTY | 0x42;

	is(good, ALL, NULL);
	/* Swapped out again, or a migration entry: no mapcount to assert. */
	is(swapped, ALL, NULL);
	is(good | MMF_PM_SWAP, 0, "page both present and swapped");
	is(good & ~MMF_PM_EXCLUSIVE, ALL, "written page not exclusively mapped");
	/* KSM or CONFIG_NO_PAGE_MAPCOUNT: not asserted. */
	is(good & ~MMF_PM_EXCLUSIVE, ALL & ~MMF_PMCHK_EXCLUSIVE, NULL);
	is(good & ~MMF_PM_SOFT_DIRTY, ALL, "written page not soft-dirty");
	is(swapped & ~MMF_PM_SOFT_DIRTY, ALL, "written page not soft-dirty");
	/* A kernel without soft-dirty never sets it. */
	is(good & ~MMF_PM_SOFT_DIRTY, ALL & ~MMF_PMCHK_SOFT_DIRTY, NULL);
	is(good | MMF_PM_UFFD_WP, ALL, "uffd-wp set without userfaultfd");
	is(good | MMF_PM_UFFD_WP, ALL & ~MMF_PMCHK_NO_UFFD_WP, NULL);
	/* Not present, not swapped (e.g. a racing zap we do not model): nothing. */
	is(0, ALL & ~MMF_PMCHK_NO_UFFD_WP, NULL);
	/* The shared zero page a split left for zeros: only where it is. */
	CHECK(mmf_pagemap_shared_zero(MMF_PM_PRESENT | 0x1234, 0x1234), "the zero page");
	CHECK(!mmf_pagemap_shared_zero(MMF_PM_PRESENT | 0x1235, 0x1234), "another page");
	CHECK(!mmf_pagemap_shared_zero(MMF_PM_SWAP | 0x1234, 0x1234), "a swap entry");
	CHECK(!mmf_pagemap_shared_zero(0x1234, 0x1234), "not present");
	{
		/* And the probe finds it here, where pagemap shows PFNs to root. */
		int fd = mmf_pagemap_open();
		uint64_t z = mmf_pagemap_zero_pfn(fd, sysconf(_SC_PAGESIZE));

		CHECK(z == mmf_pagemap_zero_pfn(fd, sysconf(_SC_PAGESIZE)), "stable: %llx",
		      (unsigned long long)z);
		CHECK(!mmf_pagemap_shared_zero(MMF_PM_PRESENT | MMF_PM_EXCLUSIVE | 0x42, z) ||
		      z == 0x42, "a page of our own is not the zero page");
		close(fd);
	}
}

static const struct tap_test tests[] = {
	TAP_TEST(test_pagemap),
};

int main(void)
{
	return tap_run(tests);
}
