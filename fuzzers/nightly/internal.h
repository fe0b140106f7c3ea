/* SPDX-License-Identifier: GPL-2.0 */
/* What the nightly layer's files share. */
#ifndef MMF_NIGHTLY_INTERNAL_H
#define MMF_NIGHTLY_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "nightly/nightly.h"
#include "store/store.h"

/*
 * Automatic reproduction beside a campaign: workers, each with a guest of
 * its own, take the store's bugs that were never tried (repro "none",
 * programs saved, seen on this arch) one at a time, bounded in time per
 * title, and leave repro.prog and repro.c, or "no reproducer".
 */
struct mmf_autorepro_opts {
	const char *crashes;	/* the crash store */
	const char *arch;
	/* The night's kernel and initramfs: the campaign's, outliving the workers. */
	const struct mmf_vm_images *im;
	const char *workdir;	/* wK/ per worker */
	int workers, mem_mb, cpus;
	int64_t repro_ms;
	const char *const *hook_args;
	volatile int *stop;
	FILE *info;
};

struct mmf_autorepro;

/* Start the workers; NULL and err when the guests cannot be set up. */
struct mmf_autorepro *mmf_autorepro_start(const struct mmf_autorepro_opts *o, char *err,
					  size_t n);
/*
 * Fuzzing is over: the workers take what is still untried (the queue), and
 * stop when it is empty. found and failed count the titles tried.
 */
void mmf_autorepro_finish(struct mmf_autorepro *a, int *found, int *failed);

/*
 * Run argv (a command and its arguments, NULL-terminated), its stdout
 * into out and its stderr dropped (out NULL: both go where this
 * process's go). Returns
 * the exit status, or -1 when it could not run or died of a signal.
 */
int mmf_nightly_cmd(const char *const *argv, struct strbuf *out);
/* One progress line, prefix and message, whole among threads; f may be NULL. */
void mmf_nightly_vsay(FILE *f, const char *prefix, const char *fmt, va_list ap);

/* "key: value" of a night file's text, malloc'ed; NULL if absent. */
char *mmf_night_value(const char *text, const char *key);
void mmf_night_free(struct mmf_night *nt);

#endif
