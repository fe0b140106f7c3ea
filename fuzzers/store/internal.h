/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the crash store's files; not part of its API. */
#ifndef MMF_STORE_INTERNAL_H
#define MMF_STORE_INTERNAL_H

#include <stdbool.h>
#include <time.h>

#include "store/store.h"

/* The contents of a bug's meta file. */
struct meta {
	long count;
	long corrupted;			/* of count, reports the parser found corrupted */
	char first[32], last[32];	/* ISO-8601 UTC, "" if unknown */
	char *arch, *kernel, *repro;	/* never NULL */
	char *found_by;			/* never NULL, "" if unknown */
};

void mmf_meta_init(struct meta *m);
void mmf_meta_free(struct meta *m);
/* Read bugdir/meta; a missing file leaves the defaults. 0 or -errno. */
int mmf_meta_read(const char *bugdir, struct meta *m);
/* Replace bugdir/meta atomically. 0 or -errno. */
int mmf_meta_write(const char *bugdir, const struct meta *m);
/* Fold one occurrence in: count, times, arch set, kernel. */
void mmf_meta_merge(struct meta *m, const struct mmf_crash *c, time_t when);
/* A value fit for one "key: value" line (no control bytes, bounded). */
char *mmf_meta_value(const char *s);
void mmf_iso_time(time_t t, char buf[32]);

/* A bug directory found (or claimed) and locked. */
struct bugdir {
	char *path;		/* DIR/name */
	const char *name;	/* the last component of path */
	int lock_fd;
	bool created;		/* claimed by this call: a new bug */
};

/*
 * Find the directory holding title, or with create claim a new one, and
 * take its lock; without create, dir may be that directory itself. 0,
 * -ENOENT (not found, !create) or -errno.
 */
int mmf_bugdir_lock(const char *dir, const char *title, bool create, struct bugdir *b);
void mmf_bugdir_unlock(struct bugdir *b);
/* fsync the bug directory, so that renames into it are durable. */
int mmf_bugdir_sync(const struct bugdir *b);

/*
 * dedup.c: the title of the known bug that a crash titled title counts to
 * by the alternative titles (malloc'ed), or NULL; and the bug's "alt" file
 * grown by the crash's titles other than the bug's own.
 */
char *mmf_store_alt_match(const char *dir, const char *title, const struct mmf_crash *c);
int mmf_store_alt_add(const struct bugdir *b, const char *bug_title, const char *title,
		      const struct mmf_crash *c);

/* Write path from buf through a temp file and link(2): never replaces. */
int mmf_put_new(const char *path, const char *buf, size_t n);
/* A temp file left by a dead writer ("x.tmp.<pid>"). */
bool mmf_is_temp_name(const char *name);
/* Parse "<prefix><N><suffix>" exactly; N or -1. */
int mmf_slot_of(const char *name, const char *prefix, const char *suffix);
/* Which MMF_OCC_* file name is (setting *n to its N), or 0. */
unsigned int mmf_occ_file(const char *name, int *n);

/* Set mmf_store_err() to "<fmt>: strerror(err)"; returns -err. */
int mmf_store_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Set mmf_store_err() to the message alone; returns ret. */
int mmf_store_msg(int ret, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
