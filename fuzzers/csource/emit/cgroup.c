// SPDX-License-Identifier: GPL-2.0
/*
 * The C reproducer's cgroup calls. It has no environment of its own: the
 * memory cgroups are the directories in $MMFUZZ_CG0..2 (-ENODEV when
 * unset), and the limits it writes are written back when it ends, however
 * it ends (runtime/kept.c).
 */
#include "csource/emit.h"

static MMF_CS_EXPR(emit_cg_move)
{
	mmf_sb_printf(sb, "rt_cg_move(cg_dir(%d), kids, %d)", (int)s->args[1], mmf_cs_target(s, 0));
}

MMF_EMITTER(cg_move, emit_cg_move, mmf_predict_success, mmf_rt_cgroup, mmf_rt_helpers);

static MMF_CS_EXPR(emit_cg_limit)
{
	const char *const *file = mmf_cgknob_files[s->args[1]];

	mmf_sb_printf(sb, "rt_cg_limit(cg_dir(%d), \"%s\", \"%s\", %llu, put_kept)", (int)s->args[0],
		  file[0], file[1], (unsigned long long)s->args[2]);
}

MMF_EMITTER(cg_limit, emit_cg_limit, mmf_predict_success, mmf_rt_cgroup, mmf_rt_helpers,
	    mmf_rt_kept);

static MMF_CS_EXPR(emit_cg_reclaim)
{
	mmf_sb_printf(sb, "rt_cg_reclaim(cg_dir(%d), len(%d))", (int)s->args[0], (int)s->args[1]);
}

MMF_EMITTER(cg_reclaim, emit_cg_reclaim, mmf_predict_success, mmf_rt_cgroup, mmf_rt_helpers);
