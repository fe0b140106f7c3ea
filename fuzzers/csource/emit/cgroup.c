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
	if (s->args[0] == MMF_TARGET_SELF)
		mmf_sb_printf(sb, "cg_num(%d, \"cgroup.procs\", NULL, getpid())", (int)s->args[1]);
	else
		mmf_sb_printf(sb, "kids[%d] > 0 ? cg_num(%d, \"cgroup.procs\", NULL, kids[%d]) : -ESRCH",
			  (int)s->args[0] - 1, (int)s->args[1], (int)s->args[0] - 1);
}

MMF_EMITTER(cg_move, emit_cg_move, mmf_predict_success, mmf_rt_helpers);

static MMF_CS_EXPR(emit_cg_limit)
{
	const char *const *file = mmf_cgknob_files[s->args[1]];
	int cg = s->args[0];

	if (s->args[2])
		mmf_sb_printf(sb, "cg_keep_num(%d, \"%s\", \"%s\", %lldll << 20)", cg, file[0], file[1],
			  (long long)s->args[2]);
	else
		mmf_sb_printf(sb, "cg_keep(%d, \"%s\", NULL, \"max\") == -ENOENT ? "
			  "cg_keep(%d, \"%s\", NULL, \"-1\") : 0", cg, file[0], cg, file[1]);
}

MMF_EMITTER(cg_limit, emit_cg_limit, mmf_predict_success, mmf_rt_helpers, mmf_rt_kept);

static MMF_CS_EXPR(emit_cg_reclaim)
{
	mmf_sb_printf(sb, "cg_num(%d, \"memory.reclaim\", NULL, len(%d))", (int)s->args[0],
		  (int)s->args[1]);
}

MMF_EMITTER(cg_reclaim, emit_cg_reclaim, mmf_predict_success, mmf_rt_helpers);
