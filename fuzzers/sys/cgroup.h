/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A memory cgroup of our own, on cgroup v2 or v1: create (journaled), set
 * limits, attach tasks, read statistics, reclaim, destroy.
 * Errors follow sys/sysfs.h: -errno, message in mmf_sys_err().
 */
#ifndef MMF_SYS_CGROUP_H
#define MMF_SYS_CGROUP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct mmf_journal;
struct mmf_journal_kind;
struct mmf_cgroup;	/* opaque handle */

/*
 * Find the memory controller: a cgroup2 mount whose cgroup.controllers
 * lists memory (preferred), else a cgroup (v1) mount with the memory
 * option. Returns 2 or 1 and the mount point in mnt, or -ENOENT.
 */
int mmf_cg_detect(char *mnt, size_t n);

/*
 * The parsing halves of detection, on given text (for tests):
 * mmf_cg_next_mount() finds the next mount of the version (v1: with the
 * memory option) in /proc/mounts text, returning where to continue or NULL;
 * mmf_cg_self_path() finds the cgroup path ("/a/b") of /proc/self/cgroup
 * text for the version (v1: the line listing memory); 0 or -ENOENT.
 */
const char *mmf_cg_next_mount(const char *mounts, int version, char *mnt, size_t n);
int mmf_cg_self_path(const char *self, int version, char *rel, size_t n);

/*
 * Create mmfuzz.<pid>[.name] (name: [A-Za-z0-9_.-], may be NULL) under the
 * caller's own cgroup, or under the hierarchy root where v2's
 * no-internal-process rule forbids enabling memory in the caller's
 * cgroup.subtree_control. Journals the directory and any subtree_control
 * change. j must outlive the handle.
 */
int mmf_cg_create(struct mmf_journal *j, const char *name, struct mmf_cgroup **cgp);
const char *mmf_cg_path(const struct mmf_cgroup *cg);
int mmf_cg_version(const struct mmf_cgroup *cg);

/*
 * Limits in bytes, -1 = unlimited. v2: memory.max, memory.high,
 * memory.swap.max. v1: memory.limit_in_bytes, memory.soft_limit_in_bytes,
 * memory.memsw.limit_in_bytes = max + swap_max. -EOPNOTSUPP (nothing
 * written) for a swap limit without swap accounting.
 */
int mmf_cg_set_limit(struct mmf_cgroup *cg, int64_t max_bytes, int64_t high_bytes,
		     int64_t swap_max_bytes);
/* Move a whole process (all its threads) into the cgroup. */
int mmf_cg_attach(struct mmf_cgroup *cg, pid_t pid);

/* The value of key in the cgroup's file ("memory.stat"); -ENOENT if absent. */
int mmf_cg_stat(struct mmf_cgroup *cg, const char *file, const char *key, uint64_t *val);

struct mmf_cg_stats {
	uint64_t usage;		/* bytes charged: memory.current / usage_in_bytes */
	uint64_t swap;		/* bytes in swap: memory.swap.current / stat swap */
	uint64_t anon;		/* stat anon / rss */
	uint64_t file;		/* stat file / cache */
	uint64_t pgmajfault;	/* stat pgmajfault */
	uint64_t ev_high;	/* events high (v2 only) */
	uint64_t ev_max;	/* events max / failcnt: usage hit the limit */
	uint64_t ev_oom;	/* events oom (v2 only) */
	uint64_t ev_oom_kill;	/* events oom_kill / oom_control oom_kill */
};

/* Fill st; fields a version or kernel lacks are 0. */
int mmf_cg_stats(struct mmf_cgroup *cg, struct mmf_cg_stats *st);

/*
 * Proactive reclaim through v2 memory.reclaim: 0, -EAGAIN (reclaimed less
 * than asked: an expected outcome), or -EOPNOTSUPP (v1, old kernel).
 */
int mmf_cg_reclaim(struct mmf_cgroup *cg, uint64_t bytes);

/*
 * Move remaining tasks to the parent, rmdir (retrying while EBUSY), mark
 * the journal record done and free cg (also on failure: the journal keeps
 * the record then).
 */
int mmf_cg_destroy(struct mmf_cgroup *cg);

/* Its records: key a cgroup dir we created, arg its version ("v2", "v1"). */
extern const struct mmf_journal_kind mmf_jk_cgroup;

#endif
