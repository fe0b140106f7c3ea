// SPDX-License-Identifier: GPL-2.0
/*
 * The executor's arena (model/arena.h): the slots lie apart, each at a
 * page-table boundary plus some half slots, with a guard slot after it.
 * The first layout whose slots and guards are all free is taken. Only
 * probed: the program's mmaps place themselves in it.
 */
struct slot_place {
	uint64_t boundary;
	int half_slots;
};

static int arena_init(void)
{
	static const struct slot_place layouts[][NR_MAPS] = {
		MMF_ARENA_LAYOUTS
	};
	long span = len(2 * SLOT_PAGES);

	for (size_t l = 0; l < sizeof(layouts) / sizeof(layouts[0]); l++) {
		int m;

		for (m = 0; m < NR_MAPS; m++) {
			char *b = (char *)(uintptr_t)(layouts[l][m].boundary +
						      layouts[l][m].half_slots * len(SLOT_PAGES / 2));
			long r = syscall(SYS_mmap, b, span, 0 /* PROT_NONE */,
					 0x104022 /* MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE|MAP_FIXED_NOREPLACE */,
					 -1, 0L);

			if (r == -1)
				break;
			if ((char *)r != b) {
				syscall(SYS_munmap, r, span);
				break;
			}
			slot_base[m] = b;
		}
		for (int k = 0; k < m; k++)
			syscall(SYS_munmap, slot_base[k], span);
		if (m == NR_MAPS)
			return 0;
	}
	return -1;
}
