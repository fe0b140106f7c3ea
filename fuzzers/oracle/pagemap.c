// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <unistd.h>

#include "oracle/pagemap.h"

int mmf_pagemap_open(void)
{
	return open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
}

int mmf_pagemap_swapped(int fd, const void *addr, long psz, int n)
{
	uint64_t ent[512];
	off_t off = (uintptr_t)addr / psz * sizeof(uint64_t);
	int swapped = 0;

	while (n > 0) {
		int chunk = n < 512 ? n : 512;
		ssize_t r = pread(fd, ent, chunk * sizeof(uint64_t), off);

		if (r <= 0)
			return -1;
		chunk = r / sizeof(uint64_t);
		for (int i = 0; i < chunk; i++)
			swapped += !!(ent[i] & MMF_PM_SWAP);
		off += r;
		n -= chunk;
	}
	return swapped;
}

uint64_t mmf_pagemap_entry(int fd, const void *addr, long psz)
{
	uint64_t ent;

	if (pread(fd, &ent, sizeof(ent), (uintptr_t)addr / psz * sizeof(ent)) != sizeof(ent))
		return 0;
	return ent;
}
