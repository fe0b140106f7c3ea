/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's findings by title: how often each came in this run and whether
 * its title was new to the store. Every command that fuzzes (fuzz,
 * campaign, vm) ends with this summary, on stdout and as OUT/summary.json,
 * and exits by it: 0 nothing new, 3 a title new to the store.
 */
#ifndef MMF_STORE_TALLY_H
#define MMF_STORE_TALLY_H

#include <stdbool.h>
#include <stdio.h>

#include "store/store.h"

/* The exit statuses of every subcommand (README's table). */
enum {
	MMF_EXIT_CLEAN = 0,
	MMF_EXIT_ERROR = 1,
	MMF_EXIT_USAGE = 2,
	MMF_EXIT_FOUND = 3,
};

struct mmf_tally {
	int nr;
	struct mmf_tally_title {
		char *title;
		long count;	/* in this run */
		bool new_bug;	/* the store had no such title before the run */
	} *t;
};

/* One finding saved as a (its mmf_store_add() answer). */
void mmf_tally_add(struct mmf_tally *t, const char *title, const struct mmf_store_added *a);
void mmf_tally_free(struct mmf_tally *t);
int mmf_tally_new(const struct mmf_tally *t);

/* "findings: N in this run, K new titles", then a line per title. */
void mmf_tally_print(const struct mmf_tally *t, FILE *f);
/*
 * The same as JSON: {"findings":N,"new_titles":K,"titles":[{"title":..,
 * "count":..,"new":..}],...extra}; extra, if not NULL, is more members
 * ("\"boots\":3"). 0, or -1 with errno.
 */
int mmf_tally_json(const struct mmf_tally *t, const char *path, const char *extra);
/* MMF_EXIT_FOUND if a title was new, else MMF_EXIT_CLEAN. */
int mmf_tally_exit(const struct mmf_tally *t);

#endif
