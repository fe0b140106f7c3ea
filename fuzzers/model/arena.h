/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the arena goes: the executor maps it at the first of these
 * addresses that is free, and so does the C reproducer. They are far from
 * where the kernel puts mappings top-down and from the heap.
 */
#ifndef MMF_ARENA_H
#define MMF_ARENA_H

#define MMF_ARENA_CANDIDATES						\
	0x200000000000ull, 0x100000000000ull, 0x40000000000ull,		\
	0x8000000000ull, 0x2000000000ull, 0x400000000ull

#endif
