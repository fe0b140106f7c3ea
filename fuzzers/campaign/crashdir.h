/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A saved crash as reproduction sees it: a bug directory of the store
 * gives its title and the programs that ran around it, and takes the
 * reproducer found (campaigns, nightly runs and mmfuzz repro share this).
 */
#ifndef MMF_CAMPAIGN_CRASHDIR_H
#define MMF_CAMPAIGN_CRASHDIR_H

#include "repro/repro.h"

/* A saved crash (a bug directory of the store), for reproduction. */
struct mmf_crash_progs {
	char *title;
	char *path;		/* the programs' file: the newest progs.N */
	int nr;
	struct mmf_prog progs[64];	/* last ran last */
};

/* Load title and programs; 0, or -1 with a message in err. */
int mmf_crash_load(const char *dir, struct mmf_crash_progs *c, char *err, size_t n);
void mmf_crash_progs_free(struct mmf_crash_progs *c);
/*
 * Store a reproducer with its bug: the text program (several, marked, for
 * a set) and, for a single program, the C reproducer. mmf_store_set_repro().
 */
int mmf_crash_save_repro(const char *dir, const char *title,
			 const struct mmf_repro_result *res);

#endif
