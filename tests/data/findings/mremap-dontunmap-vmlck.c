// SPDX-License-Identifier: GPL-2.0
/*
 * VmLck after mremap(MREMAP_DONTUNMAP) of an mlocked range: it must come
 * back to what it was once everything is unlocked and unmapped. On 6.18.44
 * it keeps the moved range's size (16 kB for 4 pages). Found by the
 * accounting oracle ("VmLck differs from mlocked pages"); the program is
 * mremap-dontunmap-vmlck.mmf beside this file.
 *	gcc -O2 -o vmlck mremap-dontunmap-vmlck.c && ./vmlck
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif

static long vmlck_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long v = -1;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmLck:", 6))
			v = atol(line + 6);
	if (f)
		fclose(f);
	return v;
}

int main(void)
{
	long psz = sysconf(_SC_PAGESIZE), before = vmlck_kb(), after;
	char *a = mmap(NULL, 64 * psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *dst = mmap(NULL, 64 * psz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (a == MAP_FAILED || dst == MAP_FAILED || munmap(dst, 64 * psz))
		return 1;
	if (mlock(a, 4 * psz))
		return 1;
	printf("mlock of 4 pages: VmLck %ld kB\n", vmlck_kb());
	if (mremap(a, 4 * psz, 4 * psz, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP,
		   dst) == MAP_FAILED)
		return 1;
	printf("mremap DONTUNMAP: VmLck %ld kB\n", vmlck_kb());
	munlockall();
	munmap(a, 64 * psz);
	munmap(dst, 64 * psz);
	after = vmlck_kb();
	printf("all unlocked and unmapped: VmLck %ld kB (before: %ld kB): %s\n", after, before,
	       after == before ? "ok" : "LEAKED");
	return after == before ? 0 : 3;
}
