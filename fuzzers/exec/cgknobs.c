// SPDX-License-Identifier: GPL-2.0
/*
 * Calls that change the program's memory cgroup, its limits, KSM and the
 * mTHP knobs. They only touch what the run prepared: the cgroups and knob
 * files of the exec options, which the environment made or journaled, so
 * that a killed run is undone by 'mmfuzz cleanup'. The runner restores
 * limits and knobs after each program (mmf_exec_restore_c()).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "exec/calls_c.h"

#ifndef PR_SET_MEMORY_MERGE
#define PR_SET_MEMORY_MERGE 67
#endif

#define KSM_DIR		"/sys/kernel/mm/ksm/"
#define THP_DIR		"/sys/kernel/mm/transparent_hugepage/"
/* ksmd's full scan of a small system takes well under a second. */
#define KSM_WAIT_MS	1500

/* cg_limit knobs: the v2 file, then its v1 counterpart. */
static const char *const cg_files[3][2] = {
	{ "memory.max", "memory.limit_in_bytes" },
	{ "memory.swap.max", "memory.memsw.limit_in_bytes" },
	{ "memory.high", "memory.soft_limit_in_bytes" },
};

static const char *const knob_vals[] = {
	"never", "always", "madvise", "inherit", "within_size", "advise",
};

/* One write(2), as cgroupfs and sysfs stores expect; 0 or -errno. */
static long put(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	long r = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		r = -errno;
	close(fd);
	return r;
}

static int get(const char *path, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0)
		return -errno;
	r = read(fd, buf, n - 1);
	close(fd);
	if (r < 0)
		return -errno;
	buf[r] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* The file of knob k in cgroup dir: v2's name if it exists, else v1's. */
static void cg_file(const char *dir, int k, char *path, size_t n)
{
	snprintf(path, n, "%s/%s", dir, cg_files[k][0]);
	if (access(path, F_OK))
		snprintf(path, n, "%s/%s", dir, cg_files[k][1]);
}

static bool cg_v1(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/memory.limit_in_bytes", dir);
	return !access(path, F_OK);
}

long run_cg_move(struct interp *in, const struct mmf_stmt *s, int si)
{
	const char *dir = in->o->cgroups[s->args[1]];
	char path[PATH_MAX], pid[24];
	pid_t who = s->args[0] == MMF_TARGET_SELF ? getpid() : in->kids[s->args[0] - 1];

	if (!dir)
		return -ENODEV;
	if (who <= 0)
		return -ESRCH;
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d\n", (int)who);
	return put(path, pid);
}

long run_cg_limit(struct interp *in, const struct mmf_stmt *s, int si)
{
	const char *dir = in->o->cgroups[s->args[0]];
	char path[PATH_MAX], val[32];

	if (!dir)
		return -ENODEV;
	cg_file(dir, s->args[1], path, sizeof(path));
	if (!s->args[2])
		snprintf(val, sizeof(val), "%s", cg_v1(dir) ? "-1" : "max");
	else
		snprintf(val, sizeof(val), "%llu", (unsigned long long)s->args[2] << 20);
	return put(path, val);
}

long run_cg_reclaim(struct interp *in, const struct mmf_stmt *s, int si)
{
	const char *dir = in->o->cgroups[s->args[0]];
	char path[PATH_MAX], val[32];
	long r;

	if (!dir)
		return -ENODEV;
	snprintf(path, sizeof(path), "%s/memory.reclaim", dir);
	snprintf(val, sizeof(val), "%lld", (long long)s->args[1] * in->psz);
	r = put(path, val);
	/* v1 and kernels before 5.19 have no proactive reclaim. */
	return r == -ENOENT ? -EOPNOTSUPP : r;
}

long run_prctl_merge(struct interp *in, const struct mmf_stmt *s, int si)
{
	long r = syscall(SYS_prctl, PR_SET_MEMORY_MERGE, s->args[0], 0, 0, 0);

	return r < 0 ? -errno : r;
}

static long ksm_scans(void)
{
	char buf[32];

	if (get(KSM_DIR "full_scans", buf, sizeof(buf)))
		return -1;
	return atol(buf);
}

/*
 * Wait until ksmd completed the asked number of full scans, so that what is
 * mergeable was merged (one scan stabilizes a page, the next merges it).
 * Bounded: -ETIMEDOUT, or -EAGAIN at once when ksmd is not running.
 */
long run_ksm_wait(struct interp *in, const struct mmf_stmt *s, int si)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	long from = ksm_scans(), now = from;
	char run[8];

	if (from < 0 || get(KSM_DIR "run", run, sizeof(run)))
		return -EOPNOTSUPP;
	if (strcmp(run, "1"))
		return -EAGAIN;
	for (long ms = 0; ms < KSM_WAIT_MS * (long)s->args[0]; ms += 10) {
		now = ksm_scans();
		if (now - from >= (long)s->args[0])
			return now - from;
		nanosleep(&ts, NULL);
	}
	return -ETIMEDOUT;
}

long run_thp_knob(struct interp *in, const struct mmf_stmt *s, int si)
{
	const char *path = in->o->knobs[s->args[0]];

	if (!path)
		return -ENODEV;
	return put(path, knob_vals[s->args[1]]);
}

static bool prog_has(const struct mmf_prog *p, int id)
{
	for (int i = 0; i < p->nr; i++)
		if (p->stmts[i].id == id)
			return true;
	return false;
}

/* "always [madvise] never" -> "madvise": the word to write back. */
static void choice(char *v)
{
	char *l = strchr(v, '['), *r = l ? strchr(l, ']') : NULL;

	if (l && r) {
		memmove(v, l + 1, r - l - 1);
		v[r - l - 1] = '\0';
	}
}

void mmf_exec_save_c(const struct mmf_prog *p, const struct mmf_exec_opts *o,
		     struct mmf_exec_saved *sv)
{
	char path[PATH_MAX];

	memset(sv, 0, sizeof(*sv));
	sv->cg = prog_has(p, MMF_CG_LIMIT);
	sv->knobs = prog_has(p, MMF_THP_KNOB);
	for (int c = 0; sv->cg && c < MMF_NR_CGROUPS; c++) {
		for (int k = 0; o->cgroups[c] && k < 3; k++) {
			cg_file(o->cgroups[c], k, path, sizeof(path));
			if (get(path, sv->cgval[c][k], sizeof(sv->cgval[c][k])))
				sv->cgval[c][k][0] = '\0';
		}
	}
	for (int k = 0; sv->knobs && k < MMF_NR_KNOBS; k++) {
		if (!o->knobs[k] || get(o->knobs[k], sv->knobval[k], sizeof(sv->knobval[k])))
			sv->knobval[k][0] = '\0';
		choice(sv->knobval[k]);
	}
}

void mmf_exec_restore_c(const struct mmf_exec_opts *o, const struct mmf_exec_saved *sv)
{
	char path[PATH_MAX];

	/* Twice: v1 refuses a memsw limit below the memory limit and the
	 * reverse, so one order may fail where the other succeeds.
	 */
	for (int pass = 0; sv->cg && pass < 2; pass++)
		for (int c = 0; c < MMF_NR_CGROUPS; c++)
			for (int k = 0; o->cgroups[c] && k < 3; k++) {
				if (!sv->cgval[c][k][0])
					continue;
				cg_file(o->cgroups[c], k, path, sizeof(path));
				put(path, sv->cgval[c][k]);
			}
	for (int k = 0; sv->knobs && k < MMF_NR_KNOBS; k++) {
		long r = o->knobs[k] && sv->knobval[k][0] ? put(o->knobs[k], sv->knobval[k]) : 0;

		if (r)
			warnx_("cannot restore %s to %s: %s", o->knobs[k], sv->knobval[k],
			       strerror(-r));
	}
}
