/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A nightly run: from a kernel tree to triaged bugs with no person in
 * between. One run is one night of a nightly store S:
 *
 *   S/lock                 flock'ed by the run: one night at a time
 *   S/crashes/             the crash store (store/store.h) of every night;
 *                          each bug seen gets report.txt, the text a
 *                          developer is sent (as syzbot mails it)
 *   S/nights/ID/           ID is the night's start, UTC, 20261203T070000Z
 *     night                "key: value" lines: the kernel, its figures
 *     bugs                 "count<TAB>new<TAB>title" of each bug seen
 *     summary.json         the same for scripts
 *     ARCH/                the campaign's output (vm-N/, boot-crashes/)
 *     repro/               the reproducing guests' consoles
 *   S/index.html           the dashboard: bugs with their state, nights
 *                          with their figures, plots over the nights
 *
 * A bug's history is read from the nights' bugs files: the nights it was
 * seen in, and its state (new, still happening, or not seen for K nights:
 * likely fixed).
 */
#ifndef MMF_NIGHTLY_H
#define MMF_NIGHTLY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "store/store.h"
#include "util/util.h"

#define MMF_NIGHTLY_MAX_ARCH	2
#define MMF_NIGHTLY_HOOK_ARGS	8
#define MMF_NIGHTLY_CORPUS	16	/* --corpus entries */

struct mmf_nightly_opts {
	const char *tree;	/* the kernel tree to build; NULL with kernel */
	const char *kernel;	/* an image or "debian": boot it, no build */
	const char *store;
	const char *arch[MMF_NIGHTLY_MAX_ARCH];
	int nr_arch;
	int64_t budget_ms;	/* of fuzzing, shared by the archs in turn */
	int vms, mem_mb, cpus;
	int64_t repro_ms;	/* one title's reproduction at most */
	int fixed_after;	/* nights not seen before a bug is "likely fixed" */
	const char *engine;	/* campaign/afl.h's choice; NULL: mmfuzz */
	/* Seeds as campaign --corpus takes them (NULL-terminated; empty: the
	 * project's corpus/; "none": generation alone).
	 */
	const char *const *corpus;
	bool no_bisect;		/* no cause bisection of tonight's new bugs */
	/* Test hooks, for the fuzzing guests and the reproducing ones alike. */
	const char *const *hook_args;
	volatile int *stop;
	FILE *info;		/* "nightly: ..." progress lines */
};

/*
 * Run one night. Returns MMF_EXIT_FOUND when a bug was new tonight,
 * MMF_EXIT_CLEAN when not, or -1 with a one-line reason in err (nothing
 * was started when the options, the store or the lock were wrong).
 */
int mmf_nightly_run(const struct mmf_nightly_opts *o, char *err, size_t n);

/* ---- history: what the nights' records say ---------------------------- */

/* A night's record, as the night file holds it. */
struct mmf_night {
	char *id;
	char *kernel, *commit, *config, *arch;
	double budget_s, programs, programs_s, coverage, swap_in, swap_out;
	int findings, bugs, new_bugs;
	bool error;
};

enum mmf_bug_state {
	MMF_BUG_NEW,		/* first seen tonight */
	MMF_BUG_HAPPENING,	/* seen tonight, and on an earlier night */
	MMF_BUG_QUIET,		/* not seen tonight, fewer than K nights */
	MMF_BUG_FIXED,		/* not seen for K nights: likely fixed */
};

/* One bug over the nights (a title of the nights' bugs files). */
struct mmf_bug_history {
	char *title;
	int nights;		/* nights it was seen in */
	long count;		/* occurrences over those nights */
	const char *first, *last;	/* night ids, into the nights' array */
	const char *missing;	/* the first night it was missing since last */
	int missed;		/* nights since it was last seen */
	enum mmf_bug_state state;
};

struct mmf_history {
	int nr_nights;
	struct mmf_night *nights;	/* oldest first */
	int nr_bugs;
	struct mmf_bug_history *bugs;	/* newest last seen first */
};

/*
 * Read S/nights/ (nights without a night file, a run killed early, are
 * left out) and the bugs' states after the newest night, K being
 * fixed_after. 0, or -1 with err.
 */
int mmf_history_load(const char *store, int fixed_after, struct mmf_history *h, char *err,
		     size_t n);
void mmf_history_free(struct mmf_history *h);
const char *mmf_bug_state_name(enum mmf_bug_state s);
/* The state's words, for people: "not seen for 3 nights (likely fixed)". */
void mmf_bug_state_text(const struct mmf_bug_history *b, struct strbuf *sb);

/* The dashboard of store (S/index.html) from its history and crashes. */
int mmf_dashboard_write(const char *store, const struct mmf_history *h, char *err, size_t n);

/*
 * The text report of one bug, for the developer's mailbox: written to
 * the bug's directory as report.txt. night is the night it was seen.
 */
int mmf_bug_report_write(const char *store, const char *title, const struct mmf_night *night,
			 char *err, size_t n);

/* ---- a night's record, written by the nightly run and the farm's collector */

struct mmf_night_record {
	const struct mmf_night *night;
	const char *tree;		/* NULL: none */
	double fuzz_s;
	int boots, reproduced, no_reproducer;
	const char *bugs;		/* the bugs file, mmf_night_bug's lines */
	const char *bugs_json;		/* the summary's bugs, mmf_night_bug's items */
	const char *more;		/* "key: value" lines for the night file, NULL: none */
};

/* S/nights/ID, ID now in UTC (-2, -3, ... when taken): 0 and both malloc'ed, or -1 and err. */
int mmf_night_make(const char *store, char **id, char **dir, char *err, size_t n);
/* A bug seen count times tonight, into the bugs file and summary's list. */
void mmf_night_bug(struct strbuf *bugs, struct strbuf *json, const struct mmf_bug *b, long count,
		   bool is_new);
/* dir's night, bugs and summary.json. 0, or -1 and err. */
int mmf_night_write(const char *dir, const struct mmf_night_record *r, char *err, size_t n);

/* ---- cause bisection --------------------------------------------------- */

struct mmf_bisect_opts {
	const char *tree;	/* a git tree, never changed: the steps use a work tree */
	const char *good, *bad;
	const char *crashdir;	/* the bug: title and repro.prog */
	/*
	 * The good commit's tree elsewhere (the tarball it came from), NULL:
	 * none. Each step builds it with the commits since good as a patch,
	 * so that its objects serve every step.
	 */
	const char *base;
	const char *arch;
	int tries;		/* runs of the reproducer per step; any hit is bad */
	int mem_mb, cpus;
	const char *const *hook_args;
	FILE *info;
};

/* What a step tells git bisect run. */
enum {
	MMF_BISECT_GOOD = 0,
	MMF_BISECT_BAD = 1,
	MMF_BISECT_SKIP = 125,	/* the commit does not build */
	MMF_BISECT_ABORT = 128,	/* the guests failed: the bisection stops */
};

/*
 * Check both ends, then bisect: 0 with the first bad commit in *first
 * (malloc'ed) and the bisection log printed, or -1 with err.
 */
int mmf_bisect_run(const struct mmf_bisect_opts *o, char **first, char *err, size_t n);
/* One step at the work tree's HEAD: an MMF_BISECT_* status. */
int mmf_bisect_step(const struct mmf_bisect_opts *o);

#endif
