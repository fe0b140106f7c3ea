// SPDX-License-Identifier: GPL-2.0
/*
 * The executor's arena: the first candidate that is free, far from where
 * the kernel puts mappings top-down and from the heap, with one guard slot
 * after it. Only probed: the program's mmaps place themselves in it.
 */
static int arena_init(void)
{
	static const uintptr_t candidates[] = {
		MMF_ARENA_CANDIDATES
	};
	long size = len(ARENA_PAGES + SLOT_PAGES);

	for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
		long r = syscall(SYS_mmap, candidates[i], size, 0 /* PROT_NONE */,
				 0x104022 /* MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE|MAP_FIXED_NOREPLACE */,
				 -1, 0);

		if (r == -1)
			continue;
		syscall(SYS_munmap, r, size);
		if ((uintptr_t)r == candidates[i]) {
			arena = (char *)r;
			return 0;
		}
	}
	return -1;
}
