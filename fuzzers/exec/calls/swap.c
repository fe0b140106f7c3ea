// SPDX-License-Identifier: GPL-2.0
/* The swap family: swapoff and swapon of the run's own devices, never any other. */
#include <sys/swap.h>

#include "exec/calls.h"

long mmf_exec_swapoff(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	const char *path = in->o->swaps[s->args[0]];

	return path ? mmf_ret(swapoff(path)) : -ENODEV;
}

long mmf_exec_swapon(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	const char *path = in->o->swaps[s->args[0]];
	int64_t prio = (int64_t)s->args[1];
	int flags = s->args[2];

	if (!path)
		return -ENODEV;
	if (prio >= 0)
		flags |= SWAP_FLAG_PREFER | ((prio << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK);
	return mmf_ret(swapon(path, flags));
}
