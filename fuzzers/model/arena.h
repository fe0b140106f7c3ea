/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the arena goes: the executor maps it at the first of these
 * addresses that is free, and so does the C reproducer. They are far from
 * where the kernel puts mappings top-down and from the heap.
 */
#ifndef MMF_ARENA_H
#define MMF_ARENA_H

#include <stdint.h>

#define MMF_NR_ARENA_CANDIDATES	6
extern const uintptr_t mmf_arena_candidates[MMF_NR_ARENA_CANDIDATES];

#endif
