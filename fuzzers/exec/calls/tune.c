// SPDX-License-Identifier: GPL-2.0
/*
 * The tune family: KSM (the process's merge flag, waiting for ksmd) and the
 * mTHP knobs. The runner restores the knobs after each program
 * (mmf_knobs_restore()).
 */
#include "exec/calls.h"
#include "exec/knobs.h"
#include "runtime/tune.h"

long mmf_exec_prctl_merge(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return rt_prctl_merge(s->args[0]);
}

long mmf_exec_ksm_wait(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	return rt_ksm_wait(s->args[0]);
}

long mmf_exec_thp_knob(struct mmf_interp *in, const struct mmf_stmt *s, int si)
{
	const char *path = in->o->knobs[s->args[0]];

	if (!path)
		return -ENODEV;
	return rt_put_file(path, mmf_thpval_set.flags[s->args[1]].name);
}

void mmf_knobs_save(const struct mmf_prog *p, const struct mmf_exec_opts *o,
		    struct mmf_exec_saved *sv)
{
	sv->knobs = mmf_has_call(p, MMF_THP_KNOB);
	for (int k = 0; sv->knobs && k < MMF_NR_KNOBS; k++) {
		if (!o->knobs[k] ||
		    rt_get_file(o->knobs[k], sv->knobval[k], sizeof(sv->knobval[k])))
			sv->knobval[k][0] = '\0';
		rt_knob_choice(sv->knobval[k]);
	}
}

void mmf_knobs_restore(const struct mmf_exec_opts *o, const struct mmf_exec_saved *sv)
{
	for (int k = 0; sv->knobs && k < MMF_NR_KNOBS; k++) {
		long r = o->knobs[k] && sv->knobval[k][0] ?
			 rt_put_file(o->knobs[k], sv->knobval[k]) : 0;

		if (r)
			mmf_warnx_("cannot restore %s to %s: %s", o->knobs[k], sv->knobval[k],
			       strerror(-r));
	}
}
