// SPDX-License-Identifier: GPL-2.0
#include "model/arena.h"

const uintptr_t mmf_arena_candidates[MMF_NR_ARENA_CANDIDATES] = {
	0x200000000000ull, 0x100000000000ull, 0x40000000000ull,
	0x8000000000ull, 0x2000000000ull, 0x400000000ull,
};
