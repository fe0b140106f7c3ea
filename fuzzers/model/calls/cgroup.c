// SPDX-License-Identifier: GPL-2.0
/* cgroup: the run's memory cgroups. */
#include "model/builder.h"

MMF_FLAG_SET(mmf_cgknob_set, "cgroup knob",
	{ "MEMORY_MAX", 0 }, { "MEMORY_SWAP_MAX", 1 }, { "MEMORY_HIGH", 2 });

MMF_BUILD_DEFAULT(cg_move);
MMF_BUILD_DEFAULT(cg_limit);
MMF_BUILD_DEFAULT(cg_reclaim);

const char *const mmf_cgknob_files[MMF_NR_CGKNOBS][2] = {
	{ "memory.max", "memory.limit_in_bytes" },
	{ "memory.swap.max", "memory.memsw.limit_in_bytes" },
	{ "memory.high", "memory.soft_limit_in_bytes" },
};
