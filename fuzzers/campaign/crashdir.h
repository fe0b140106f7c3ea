/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A saved crash as reproduction sees it: a bug directory of the store
 * gives its title and the programs that ran around it, and takes the
 * reproducer found (campaigns, nightly runs and mmfuzz repro share this).
 */
#ifndef MMF_CAMPAIGN_CRASHDIR_H
#define MMF_CAMPAIGN_CRASHDIR_H

#include "repro/repro.h"

#define MMF_CRASH_OCC 16	/* occurrences looked at, at least MMF_STORE_KEEP */

/* A saved crash (a bug directory of the store), for reproduction. */
struct mmf_crash_progs {
	char *title;
	char *path;		/* the programs' file loaded: a progs.N */
	int nr;
	struct mmf_prog progs[64];	/* last ran last */
	int nr_occ;		/* occurrences with programs */
	char *occ[MMF_CRASH_OCC];	/* their programs' files, newest first */
};

/* Load title and the newest occurrence's programs; 0, or -1 with err. */
int mmf_crash_load(const char *dir, struct mmf_crash_progs *c, char *err, size_t n);
void mmf_crash_progs_free(struct mmf_crash_progs *c);
/*
 * Reproduce from every occurrence, newest first, and while ops' deadline
 * allows, from all again with twice the runs per candidate. As
 * mmf_repro(); c is then the occurrence the search ended with.
 */
int mmf_crash_repro(const struct mmf_repro_ops *ops, struct mmf_crash_progs *c,
		    struct mmf_repro_result *res);
/*
 * Store a reproducer with its bug: the text program (several, marked, for
 * a set) and, for a single program, the C reproducer. mmf_store_set_repro().
 */
int mmf_crash_save_repro(const char *dir, const char *title,
			 const struct mmf_repro_result *res);

#endif
