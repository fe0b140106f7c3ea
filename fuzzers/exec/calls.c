// SPDX-License-Identifier: GPL-2.0
/*
 * The run function of each call, generated from model/calls.def: a call
 * without its mmf_exec_FN in exec/calls/FAMILY.c fails to link.
 */
#include "exec/calls.h"

const mmf_run_fn mmf_exec_calls[MMF_NR_CALLS] = {
#define MMF_CALL(id, fn, ...)		\
	[MMF_##id] = mmf_exec_##fn,
#define MMF_BLOCK(...)
#include "model/calls.def"
#undef MMF_CALL
#undef MMF_BLOCK
};
