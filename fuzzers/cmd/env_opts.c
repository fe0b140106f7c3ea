// SPDX-License-Identifier: GPL-2.0
/* The native environment's options, shared by fuzz, stress and repro. */
#include "cmd/cmds.h"

const struct mmf_opt *cmd_env_opts(struct mmf_env_opts *eo)
{
	static struct mmf_opt t[] = {
		MMF_OPT("swap-size", "MB", MMF_OPT_MIB, NULL, "size of each swap device",
			.lo = 1, .hi = 1 << 20),
		MMF_OPT("swapdir", "DIR", MMF_OPT_STR, NULL, "where swap and loop files go",
			.def = "/var/tmp"),
		MMF_OPT("cgroup-limit", "MB", MMF_OPT_MIB, NULL,
			"memory cgroup limit for programs, 0 for none", .hi = 1 << 20),
		MMF_OPT("no-zram", NULL, MMF_OPT_UNFLAG, NULL, "no zram swap device"),
		MMF_OPT("no-loop", NULL, MMF_OPT_UNFLAG, NULL, "no loop device swap"),
		MMF_OPT("swap", "PATH", MMF_OPT_STRS, NULL,
			"cycle this existing swap device instead of making any\n"
			"(repeatable; for guests, whose init made them)", .hi = MMF_NR_SWAPS),
		MMF_OPT_END
	};

	t[0].dst = &eo->swap_bytes;
	t[1].dst = &eo->swapdir;
	t[2].dst = &eo->cg_limit;
	t[3].dst = &eo->zram;
	t[4].dst = &eo->loop;
	t[5].dst = eo->use_swaps;
	return t;
}
