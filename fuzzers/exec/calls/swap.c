// SPDX-License-Identifier: GPL-2.0
/* The swap family: swapoff and swapon of the run's own devices, never any other. */
#include "exec/calls.h"
#include "runtime/swap.h"

long mmf_exec_swapoff(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return rt_swapoff(in->o->swaps[s->args[0]]);
}

long mmf_exec_swapon(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return rt_swapon(in->o->swaps[s->args[0]], (int64_t)s->args[1], s->args[2]);
}
