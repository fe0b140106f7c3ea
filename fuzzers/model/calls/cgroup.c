// SPDX-License-Identifier: GPL-2.0
/* cgroup: the run's memory cgroups. */
#include "model/builder.h"

MMF_FLAG_SET(mmf_cgknob_set, "cgroup knob",
	{ "MEMORY_MAX", 0 }, { "MEMORY_SWAP_MAX", 1 }, { "MEMORY_HIGH", 2 });

MMF_BUILD_DEFAULT(cg_move);
MMF_BUILD_DEFAULT(cg_limit);
MMF_BUILD_DEFAULT(cg_reclaim);
