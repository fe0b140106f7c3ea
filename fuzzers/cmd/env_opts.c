// SPDX-License-Identifier: GPL-2.0
/* The native environment's options, shared by 'mmfuzz fuzz' and 'mmfuzz stress'. */
#include <errno.h>
#include <stdlib.h>

#include "cmd/cmds.h"
#include "util/util.h"

long cmd_num(const char *cmd, const char *opt, const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || end == s || *end || v < lo || v > hi)
		die("%s: %s '%s' is not a number from %ld to %ld", cmd, opt, s, lo, hi);
	return v;
}

int cmd_env_option(const char *cmd, int c, const char *arg, struct mmf_env_opts *eo)
{
	int n = 0;

	switch (c) {
	case 'S':
		eo->swap_bytes = strtoull(arg, NULL, 10) << 20;
		return 1;
	case 'D':
		eo->swapdir = arg;
		return 1;
	case 'L':
		eo->cg_limit = strtoll(arg, NULL, 10) << 20;
		return 1;
	case 'Z':
		eo->zram = false;
		return 1;
	case 'N':
		eo->loop = false;
		return 1;
	case 'W':
		while (n < MMF_NR_SWAPS && eo->use_swaps[n])
			n++;
		if (n == MMF_NR_SWAPS)
			die("%s: at most %d --swap devices", cmd, MMF_NR_SWAPS);
		eo->use_swaps[n] = arg;
		return 1;
	}
	return 0;
}
