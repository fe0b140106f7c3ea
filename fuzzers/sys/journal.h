/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Undo journal: every change the sys layer makes to the machine is appended
 * (and fsync'd) to STATE_DIR/journal.<pid> before it is made, so that
 * mmf_journal_close() or, after a SIGKILL, mmf_cleanup() can undo it in
 * reverse order. See CONTRIBUTING-sys.md for the guarantees and the format.
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

enum mmf_jkind {
	MMF_J_KNOB,	/* key: file path, arg: old value to write back */
	MMF_J_SWAPON,	/* key: swap device or file path: swapoff */
	MMF_J_ZRAM,	/* key: zram device id: reset, hot_remove */
	MMF_J_FILE,	/* key: regular file we created: unlink */
	MMF_J_CGROUP,	/* key: cgroup dir we created, arg: "v1"/"v2": empty, rmdir */
	MMF_J_SUBTREE,	/* key: cgroup dir, arg: controller we enabled there */
	MMF_J_MODULE,	/* key: kernel module we loaded: modprobe -r */
	MMF_J_LOOP,	/* key: /dev/loopN, arg: its backing file: detach if still so */
	MMF_J_NR,
};

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
int mmf_journal_add(struct mmf_journal *j, enum mmf_jkind kind, const char *key,
		    const char *arg);
/*
 * The caller has undone the latest record of kind/key itself (or the change
 * it announced did not happen): replay must not touch it any more.
 */
int mmf_journal_done(struct mmf_journal *j, enum mmf_jkind kind, const char *key);
/* Whether a not-yet-done record of kind/key exists: "is this ours?". */
bool mmf_journal_has(struct mmf_journal *j, enum mmf_jkind kind, const char *key);

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
 * are reported with warnx_(). Without undo the file is kept as is (the
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
