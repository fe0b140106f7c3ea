// SPDX-License-Identifier: GPL-2.0
/* tune: KSM and THP knobs. */
#include "model/builder.h"

/*
 * Indexes into mmf_knob_paths[]. A knob names a folio size, not an order:
 * THP_2M is 2 MiB folios whatever the page size (a contiguous-PTE run on
 * arm64 with 16 KiB pages, the PMD with 4 KiB); a size the kernel has no
 * knob for (16 KiB folios on 16 KiB pages) is -ENODEV.
 */
MMF_FLAG_SET(mmf_thpknob_set, "knob",
	{ "THP_16K", 0 }, { "THP_32K", 1 }, { "THP_64K", 2 }, { "THP_128K", 3 },
	{ "THP_256K", 4 }, { "THP_512K", 5 }, { "THP_1M", 6 }, { "THP_2M", 7 },
	{ "SHMEM", 8 });

/*
 * Knob values, each its index (the executor and the C reproducer write
 * flags[value].name); within_size and advise only for shmem, inherit only
 * per size.
 */
MMF_FLAG_SET(mmf_thpval_set, "knob value",
	{ "never", 0 }, { "always", 1 }, { "madvise", 2 }, { "inherit", 3 },
	{ "within_size", 4 }, { "advise", 5 });

const char *const mmf_knob_paths[MMF_NR_KNOBS] = {
	"hugepages-16kB/enabled", "hugepages-32kB/enabled", "hugepages-64kB/enabled",
	"hugepages-128kB/enabled", "hugepages-256kB/enabled", "hugepages-512kB/enabled",
	"hugepages-1024kB/enabled", "hugepages-2048kB/enabled", "shmem_enabled",
};

MMF_BUILD_DEFAULT(prctl_merge);
MMF_BUILD_DEFAULT(ksm_wait);
MMF_BUILD_DEFAULT(thp_knob);
