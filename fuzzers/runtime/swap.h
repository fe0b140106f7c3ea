/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The swap family: swapoff and swapon of the run's own devices (paths the
 * caller names, NULL when there is none), never any other.
 */
#ifndef MMF_RUNTIME_SWAP_H
#define MMF_RUNTIME_SWAP_H

#include <sys/swap.h>

#include "runtime/base.h"

static inline long rt_swapoff(const char *path)
{
	return path ? rt_ret(syscall(SYS_swapoff, path)) : -ENODEV;
}

/* A priority of 0..32767 is preferred, -1 the kernel's default. */
static inline long rt_swapon(const char *path, int prio, int flags)
{
	if (!path)
		return -ENODEV;
	if (prio >= 0)
		flags |= SWAP_FLAG_PREFER | ((prio << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK);
	return rt_ret(syscall(SYS_swapon, path, flags));
}

#endif
