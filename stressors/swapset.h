/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run's swap devices: made by us (zram, swap files, a loop device, each
 * at its own priority, journaled) or given by the user (a guest's disks:
 * never removed). The native fuzzer's environment and the swap stressor
 * both use this one set.
 */
#ifndef MMF_STRESS_SWAPSET_H
#define MMF_STRESS_SWAPSET_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

struct mmf_journal;

#define MMF_SWAPSET_MAX	8

struct mmf_swapset_opts {
	const char *dir;	/* swap and loop files (NULL: /var/tmp) */
	uint64_t bytes;		/* per device */
	int nr_files;
	bool zram;		/* where the kernel has it */
	bool loop;		/* a loop device over a file in dir */
	int max;		/* at most this many devices */
	const char *use[MMF_SWAPSET_MAX];	/* given devices instead, NULL ends */
};

struct mmf_swapset {
	int nr;
	char path[MMF_SWAPSET_MAX][PATH_MAX];
	int prio[MMF_SWAPSET_MAX];	/* -1: the kernel's choice */
};

/* Make (or take) the devices; on failure remove what was made: -errno. */
int mmf_swapset_make(struct mmf_journal *j, const struct mmf_swapset_opts *o,
		     struct mmf_swapset *s);
/* Swap back on what is off, at its priority. */
void mmf_swapset_restore(const struct mmf_swapset *s);

#endif
