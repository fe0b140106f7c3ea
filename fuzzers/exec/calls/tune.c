// SPDX-License-Identifier: GPL-2.0
/*
 * The tune family: KSM (the process's merge flag, waiting for ksmd) and the
 * mTHP knobs. The runner restores the knobs after each program
 * (mmf_knobs_restore()).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "exec/calls.h"
#include "exec/knobs.h"
#include "model/uapi.h"

#define KSM_DIR		"/sys/kernel/mm/ksm/"
/* ksmd's full scan of a small system takes well under a second. */
#define KSM_WAIT_MS	1500

long mmf_exec_prctl_merge(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	long r = syscall(SYS_prctl, MMF_PR_SET_MEMORY_MERGE, s->args[0], 0, 0, 0);

	return r < 0 ? -errno : r;
}

static long ksm_scans(void)
{
	char buf[32];

	if (mmf_knob_read(KSM_DIR "full_scans", buf, sizeof(buf)))
		return -1;
	return atol(buf);
}

/*
 * Wait until ksmd completed the asked number of full scans, so that what is
 * mergeable was merged (one scan stabilizes a page, the next merges it).
 * Bounded: -ETIMEDOUT, or -EAGAIN at once when ksmd is not running.
 */
long mmf_exec_ksm_wait(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	long from = ksm_scans(), now = from;
	char run[8];

	if (from < 0 || mmf_knob_read(KSM_DIR "run", run, sizeof(run)))
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

long mmf_exec_thp_knob(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	const char *path = in->o->knobs[s->args[0]];

	if (!path)
		return -ENODEV;
	return mmf_knob_write(path, mmf_thpval_set.flags[s->args[1]].name);
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

void mmf_knobs_save(const struct mmf_prog *p, const struct mmf_exec_opts *o,
		    struct mmf_exec_saved *sv)
{
	sv->knobs = mmf_has_call(p, MMF_THP_KNOB);
	for (int k = 0; sv->knobs && k < MMF_NR_KNOBS; k++) {
		if (!o->knobs[k] ||
		    mmf_knob_read(o->knobs[k], sv->knobval[k], sizeof(sv->knobval[k])))
			sv->knobval[k][0] = '\0';
		choice(sv->knobval[k]);
	}
}

void mmf_knobs_restore(const struct mmf_exec_opts *o, const struct mmf_exec_saved *sv)
{
	for (int k = 0; sv->knobs && k < MMF_NR_KNOBS; k++) {
		long r = o->knobs[k] && sv->knobval[k][0] ?
			 mmf_knob_write(o->knobs[k], sv->knobval[k]) : 0;

		if (r)
			mmf_warnx_("cannot restore %s to %s: %s", o->knobs[k], sv->knobval[k],
			       strerror(-r));
	}
}
