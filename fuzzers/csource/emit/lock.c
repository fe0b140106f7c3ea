// SPDX-License-Identifier: GPL-2.0
/* The C reproducer's lock calls. */
#include "csource/emit.h"

/* (Un)locking fails (ENOMEM) on a hole; locking that populates the range
 * fails where a fault would.
 */
static long lock_result(const struct mmf_shadow *sh, int idx, int n, bool populate)
{
	for (int i = 0; i < n; i++)
		if (mmf_cs_unmapped(&sh->pages[idx + i]) ||
		    (populate && mmf_cs_no_access(sh, &sh->pages[idx + i])))
			return -ENOMEM;
	return 0;
}

static MMF_CS_EXPR(emit_mlock)
{
	mmf_cs_range_call(sb, s, "mlock", -1);
}

static MMF_CS_PREDICT(predict_mlock)
{
	return lock_result(sh, idx, n, true);
}

MMF_EMITTER(mlock, emit_mlock, predict_mlock);

static MMF_CS_EXPR(emit_mlock2)
{
	mmf_cs_range_call(sb, s, "mlock2", 3);
}

static MMF_CS_PREDICT(predict_mlock2)
{
	return lock_result(sh, idx, n, !(s->args[3] & MMF_MLOCK_ONFAULT));
}

MMF_EMITTER(mlock2, emit_mlock2, predict_mlock2);

static MMF_CS_EXPR(emit_munlock)
{
	mmf_cs_range_call(sb, s, "munlock", -1);
}

static MMF_CS_PREDICT(predict_munlock)
{
	return lock_result(sh, idx, n, false);
}

MMF_EMITTER(munlock, emit_munlock, predict_munlock);

static MMF_CS_EXPR(emit_mlockall)
{
	mmf_sb_puts(sb, "rt_ret(syscall(SYS_mlockall, ");
	mmf_cs_flag_arg(sb, s, 0);
	mmf_sb_puts(sb, "))");
}

MMF_EMITTER(mlockall, emit_mlockall, mmf_predict_success);

static MMF_CS_EXPR(emit_munlockall)
{
	mmf_sb_puts(sb, "rt_ret(syscall(SYS_munlockall))");
}

MMF_EMITTER(munlockall, emit_munlockall, mmf_predict_success);
