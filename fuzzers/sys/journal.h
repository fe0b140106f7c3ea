/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Undo journal: every change the sys layer makes to the machine is appended
 * (and fsync'd) to STATE_DIR/journal.<pid> before it is made, so that
 * mmf_journal_close() or, after a SIGKILL, mmf_cleanup() can undo it in
 * reverse order. The file format is described at the top of journal.c, the
 * guarantees in CONTRIBUTING.md ("System helpers and the undo journal").
 *
 * Errors follow sys/sysfs.h: -errno, message in mmf_sys_err().
 * A journal handle may be used from several threads. A forked child may
 * append through its copy, but only the opening process ever undoes.
 */
#ifndef MMF_SYS_JOURNAL_H
#define MMF_SYS_JOURNAL_H

#include <stdbool.h>
#include <stdio.h>

struct mmf_journal;
struct strbuf;

/* What an undo did, besides -errno. */
enum mmf_undo {
	MMF_UNDO_DONE,	/* undone now */
	MMF_UNDO_GONE,	/* already undone (by somebody, or it never happened) */
	MMF_UNDO_INUSE,	/* left in place on purpose: another run relies on it */
};

/*
 * A kind of record: how replay checks, undoes and describes it. The module
 * that makes the change defines the kind, registers it with
 * MMF_JOURNAL_KIND() and passes it to mmf_journal_add(). A record names its
 * kind by name on disk, so a name never changes once released. Replay may
 * run in another process (mmfuzz cleanup, the guardian), so the callbacks
 * see only key and arg as written; arg may be NULL.
 */
struct mmf_journal_kind {
	const char *name;	/* one word, unique */
	/* 0 if key/arg can name a change of ours, else mmf_sys_fail(): replay trusts no record. */
	int (*check)(const char *key, const char *arg);
	/* An enum mmf_undo, or -errno with mmf_sys_err() set. Idempotent. */
	int (*undo)(const char *key, const char *arg);
	/* One line for the cleanup report, without a newline: "swapoff /dev/zram3". */
	void (*describe)(struct strbuf *sb, const char *key, const char *arg);
	/*
	 * The path the change is about, malloc'd, where that is not key: the
	 * records about it and its parents stay when it cannot be undone.
	 */
	char *(*path)(const char *key);
	/* Undo it even if it was made before the last reboot (files on disk). */
	bool after_reboot;
};

/*
 * Make kind (a struct mmf_journal_kind of this file) known to replay, also
 * of other processes' journals: a linker section collects every kind the
 * program links. A record of a kind it lacks stays in the journal.
 */
#define MMF_JOURNAL_KIND(kind)							\
	static const struct mmf_journal_kind *const kind##_entry			\
	__attribute__((used, section("mmf_journal_kinds"))) = &kind

/* 0 if key is an absolute path, else mmf_sys_fail(): a check for kinds keyed by path. */
int mmf_journal_check_path(const char *key, const char *arg);

/* $MMFUZZ_STATE_DIR, else /run/mmfuzz. */
const char *mmf_state_dir(void);

/*
 * Create state_dir (NULL: mmf_state_dir()) if needed and start
 * state_dir/journal.<pid>. A stale journal of an earlier process that had
 * the same pid is replayed first. Closing with undo (and the guardian)
 * removes the state dir again once it is empty.
 */
int mmf_journal_open(const char *state_dir, struct mmf_journal **jp);
const char *mmf_journal_path(const struct mmf_journal *j);

/* Record a change about to be made; arg may be NULL. Durable on return. */
int mmf_journal_add(struct mmf_journal *j, const struct mmf_journal_kind *kind,
		    const char *key, const char *arg);
/*
 * The caller has undone the latest record of kind/key itself (or the change
 * it announced did not happen): replay must not touch it any more.
 */
int mmf_journal_done(struct mmf_journal *j, const struct mmf_journal_kind *kind,
		     const char *key);
/* Whether a not-yet-done record of kind/key exists: "is this ours?". */
bool mmf_journal_has(struct mmf_journal *j, const struct mmf_journal_kind *kind,
		     const char *key);

/*
 * Fork a detached guardian process that waits for this process to exit and
 * then runs mmf_cleanup() on the state dir (retrying for a few seconds
 * while items fail or journals still look live) and removes the dir once
 * empty, so a run killed by any signal (OOM killer, test timeout, ^C) is
 * cleaned up without 'mmfuzz cleanup'. mmf_state_guard() may be called
 * before the dir exists (NULL: mmf_state_dir()), which leaves no window.
 * Call while single-threaded. Returns the guardian's pid or -errno.
 */
int mmf_state_guard(const char *state_dir);
int mmf_journal_guard(struct mmf_journal *j);

/*
 * Undo everything (if undo) in reverse order and remove the journal file;
 * items that could not be undone stay in the file for 'mmfuzz cleanup' and
 * are reported with mmf_warnx_(). Without undo the file is kept as is (the
 * changes stay until cleanup). Frees j in every case. Returns 0 or the
 * first error. In a forked child it only frees.
 */
int mmf_journal_close(struct mmf_journal *j, bool undo);

struct mmf_cleanup_report {
	int journals;	/* journal files looked at */
	int replayed;	/* of dead runs, fully undone and removed */
	int live;	/* of live runs (or locked by another cleanup): left alone */
	int kept;	/* of dead runs, kept because some item failed */
	int undone;	/* items undone (or found already undone) */
	int failed;	/* items that could not be undone */
};

/*
 * Replay every journal in state_dir whose owner is dead (no such pid, a
 * zombie, or a pid reused by another process: start time differs), printing
 * one line per item to out (NULL: quiet). Returns 0 if nothing failed, else
 * the first error; rep (may be NULL) gets the counts.
 */
int mmf_cleanup(const char *state_dir, FILE *out, struct mmf_cleanup_report *rep);

#endif
