/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The crash store: one directory per bug, keyed by the report title, that
 * many fuzzer processes (native runs, guests) add to at the same time.
 *
 * On disk, DIR/<name>/ where <name> is the title made path-safe plus a hash
 * of the exact title ("KASAN_use-after-free_Read_in_foo-1a2b3c4d"; "-2",
 * "-3" after it in the rare case two titles share name and hash):
 *
 *   title           the exact title and a newline
 *   meta            "key: value" lines: count, first_seen, last_seen
 *                   (ISO-8601 UTC), arch (every arch seen, space separated),
 *                   kernel (that of the newest occurrence), repro (status),
 *                   found_by (what program found it first, when told:
 *                   "fuzzer", a program the fuzzer made, or "seed SOURCE",
 *                   a seed run unchanged, e.g. a corpus file); unknown
 *                   keys are ignored by readers
 *   report.N        occurrence N's report, N < keep limit; later
 *   report.N.sym    occurrences only bump count and last_seen.
 *   log.N           The optional files are absent when the crash had
 *   progs.N         none. N is the lowest free slot.
 *   repro.prog      reproducers (mmf_store_set_repro, mmfuzz repro): a
 *   repro.c         new one goes beside the old, as repro.1.prog, ...
 *   lock            flock'ed by every writer of this bug
 *
 * Guarantees: a writer holds the bug's lock for its whole update, writes
 * every file to "<final>.tmp.<pid>" and renames or links it into place, so
 * a file under a final name is always complete and meta is always the old
 * or the new one. Per-occurrence files are linked (never replaced): no
 * saved occurrence is overwritten. A writer killed at any point loses at
 * most its own occurrence; its temp files are removed by the next writer
 * of the bug, and a count it failed to bump is repaired then (count is
 * never less than the number of kept occurrences).
 *
 * Functions return 0 (or a count) or -errno and leave one line for the
 * user in mmf_store_err(), e.g. "cannot create /x/crashes: Read-only file
 * system".
 */
#ifndef MMF_STORE_H
#define MMF_STORE_H

#include <stdbool.h>
#include <time.h>

#include "util/util.h"

/* Occurrences kept per bug by mmf_store_add(). */
#define MMF_STORE_KEEP 10

/* One occurrence of a crash. Only title is required. */
struct mmf_crash {
	const char *title;	/* from the report parser, or an oracle's title line */
	const char *report;	/* report text; NULL is an empty report */
	const char *report_sym;	/* symbolized report, NULL if none */
	const char *log;	/* console log / kernel log around it, NULL if none */
	const char *progs;	/* the executed program(s) around it, text form, NULL if none */
	const char *kernel;	/* kernel build, e.g. uname -r and -v; NULL if unknown */
	const char *arch;	/* x86_64, arm64; NULL if unknown */
	time_t time;		/* when it happened; 0 for now */
	const char *origin;	/* its program's origin (meta's found_by), NULL if unknown */
	/* The parser's other titles for it (see mmf_store_add()), and
	 * whether its report was cut or mangled (they are then not used).
	 */
	const char *const *alt_titles;
	int nr_alt;
	bool corrupted;
	/*
	 * The title of a report the same program made just before (the same
	 * guest, seconds apart), NULL if none: this occurrence counts to that
	 * bug and its own title, unless corrupted, joins the bug's "alt".
	 */
	const char *related;
};

/* What mmf_store_add() did. */
struct mmf_store_added {
	char name[128];		/* the bug's directory name in the store */
	/* the bug's title (this one's, a known alternative's or related's) */
	char title[256];
	int index;		/* N of report.N, -1 if only counted (keep limit) */
	long count;		/* the bug's count, this occurrence included */
	bool new_bug;		/* the first occurrence of this title */
	bool related;		/* counted to the bug of mmf_crash.related */
};

/*
 * Add one occurrence, creating dir and the bug as needed. keep is the
 * number of occurrences kept with their files. out may be NULL.
 *
 * A title new to the store counts to a known bug when it or one of its
 * alternative titles is that bug's title or one of its alternatives (the
 * parser names some bugs in more than one way); every alternative seen is
 * kept in the bug's "alt" file, a title a line. A corrupted report counts
 * by its exact title only.
 */
int mmf_store_add(const char *dir, const struct mmf_crash *c, struct mmf_store_added *out);
int mmf_store_add_keep(const char *dir, const struct mmf_crash *c, int keep,
		       struct mmf_store_added *out);
/*
 * One program's reports together, one bug: related is the title of the
 * first that was saved (the next gets it as mmf_crash.related), or NULL.
 */
struct mmf_store_group {
	char *first;		/* the first report's title, its bug's */
	uint64_t prog;		/* the program that made it: a hash, 0 unknown */
	uint64_t at_ms;		/* when the last report of the group came */
};
/* Seconds between two reports of one program that are still one group. */
#define MMF_STORE_GROUP_MS	60000
/* The related title for a report of prog at now_ms, NULL if none. */
const char *mmf_store_group_related(const struct mmf_store_group *g, uint64_t prog,
				    uint64_t now_ms);
/* After the save: title starts a group unless it was counted as related. */
void mmf_store_group_saved(struct mmf_store_group *g, const char *title,
			   const struct mmf_store_added *added, uint64_t prog, uint64_t now_ms);
void mmf_store_group_free(struct mmf_store_group *g);

/*
 * Record a reproducer attempt for the bug with this exact title: status
 * (a word or short phrase: "none", "prog", "c", "failed", ...) goes into
 * meta; prog and csrc, when not NULL, are saved as repro.prog and repro.c,
 * or beside earlier ones as repro.1.prog, repro.1.c, ... dir is the store,
 * or the bug's own directory (one copied out of a store). -ENOENT if there
 * is no such bug.
 */
int mmf_store_set_repro(const char *dir, const char *title, const char *status,
			const char *prog, const char *csrc);

/* Files a kept occurrence has. */
enum {
	MMF_OCC_REPORT	= 1 << 0,
	MMF_OCC_SYM	= 1 << 1,
	MMF_OCC_LOG	= 1 << 2,
	MMF_OCC_PROGS	= 1 << 3,
};

struct mmf_occ {
	int n;			/* the N of report.N */
	unsigned int files;	/* MMF_OCC_* */
};

/* A bug as mmf_store_list() reads it. */
struct mmf_bug {
	char *name;		/* directory name in the store */
	char *title;
	long count;
	long corrupted;		/* of count, reports the parser found corrupted */
	char first_seen[32];	/* "2024-05-01T12:00:00Z", "" if unknown */
	char last_seen[32];
	char *arch, *kernel;	/* "" if unknown */
	/*
	 * Reproducer status from meta; "none" by default, or "prog"/"c" when
	 * reproducers were saved without one (by an older mmfuzz repro).
	 */
	char *repro;
	char *found_by;		/* what found it first (meta), "" if unknown */
	char *alt;		/* the other titles it was seen under, a line each */
	int nr_repro;
	char **repro_files;	/* repro.prog, repro.1.prog, repro.c, ... sorted */
	int nr_occ;
	struct mmf_occ *occ;	/* kept occurrences, ascending N */
};

/*
 * Read every bug of the store, newest last_seen first (then by title).
 * Directories without a title file (a writer died creating them) are
 * skipped. Returns the number of bugs, *out to free with mmf_bugs_free().
 */
int mmf_store_list(const char *dir, struct mmf_bug **out);
/*
 * Seen in corrupted reports only: its title may come from a mangled
 * stack, so it is kept apart and not reproduced (as syz-manager does).
 */
static inline bool mmf_bug_corrupted(const struct mmf_bug *b)
{
	return b->count > 0 && b->corrupted >= b->count;
}
void mmf_bugs_free(struct mmf_bug *b, int n);

/*
 * Find a bug by exact title, then by directory name, then by unique title
 * prefix. Returns its index, -ENOENT, or -ENOTUNIQ when a prefix matches
 * several bugs.
 */
int mmf_store_find(const struct mmf_bug *b, int n, const char *key);

/*
 * The title as stored: leading and trailing white space removed, each run
 * of CR/LF inside replaced by one space, nothing else changed (bytes that
 * are not UTF-8 stay). NULL if nothing is left.
 */
char *mmf_store_title(const char *raw);

/* The directory name of a (stored) title before any collision suffix. */
char *mmf_store_dir_name(const char *title);

/*
 * A static HTML page of the bugs: one table row each. prefix is the
 * relative URL from the page to the store ("" when the page is in it).
 */
void mmf_store_html(const struct mmf_bug *b, int n, const char *prefix, struct strbuf *sb);

/* Write the page of store dir to path, links relative to path's directory. */
int mmf_store_html_file(const char *dir, const char *path, int *nr_bugs);

/* The last error of this thread, one line. */
const char *mmf_store_err(void);

#endif
