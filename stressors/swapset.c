// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "stressors/swapset.h"
#include "sys/journal.h"
#include "sys/loopdev.h"
#include "sys/swapdev.h"
#include "sys/sysfs.h"
#include "util/util.h"

/*
 * zram first, the files at one lower priority (the kernel round-robins equal
 * priorities, so entries spread over several devices), the loop device last.
 */
enum { PRIO_ZRAM = 10, PRIO_FILE = 5, PRIO_LOOP = 2 };

static void take(struct mmf_swapset *s, const char *path)
{
	struct mmf_swap_info info;

	snprintf(s->path[s->nr], PATH_MAX, "%s", path);
	s->prio[s->nr++] = mmf_swap_find(path, &info) > 0 ? info.prio : -1;
}

int mmf_swapset_make(struct mmf_journal *j, const struct mmf_swapset_opts *o,
		     struct mmf_swapset *s)
{
	int max = o->max > 0 ? MIN(o->max, MMF_SWAPSET_MAX) : MMF_SWAPSET_MAX;
	char msg[512];
	int r;

	memset(s, 0, sizeof(*s));
	for (int i = 0; i < MMF_SWAPSET_MAX && o->use[i] && s->nr < max; i++)
		take(s, o->use[i]);
	if (s->nr)
		return 0;
	if (o->zram && mmf_zram_add(j, o->bytes, PRIO_ZRAM, s->path[s->nr]) >= 0)
		s->prio[s->nr++] = PRIO_ZRAM;
	for (int i = 0; i < o->nr_files && s->nr < max; i++) {
		r = mmf_swapfile_add(j, o->dir, o->bytes, PRIO_FILE, s->path[s->nr]);
		if (r < 0)
			goto fail;
		s->prio[s->nr++] = PRIO_FILE;
	}
	/* Optional like zram: a kernel without loop devices still fuzzes. */
	if (o->loop && s->nr < max &&
	    mmf_loop_swap_add(j, o->dir, o->bytes, PRIO_LOOP, s->path[s->nr]) >= 0)
		s->prio[s->nr++] = PRIO_LOOP;
	return 0;
fail:
	snprintf(msg, sizeof(msg), "%s", mmf_sys_err());
	while (s->nr--)
		mmf_swapdev_remove(j, s->path[s->nr]);
	s->nr = 0;
	return mmf_sys_set_err(r, msg);
}

void mmf_swapset_restore(const struct mmf_swapset *s)
{
	struct mmf_swap_info info;

	for (int i = 0; i < s->nr; i++)
		if (mmf_swap_find(s->path[i], &info) <= 0)
			mmf_swapon(s->path[i], s->prio[i]);
}
