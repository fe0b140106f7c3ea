/* SPDX-License-Identifier: GPL-2.0 */
/* The C reproducer's code of the cgroup, file, KSM and knob calls (csource_c.c). */
#ifndef MMF_CSOURCE_C_H
#define MMF_CSOURCE_C_H

#include "model/prog.h"

struct gen;
struct strbuf;

#define EMIT_C(name) \
	void name(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)

EMIT_C(mmf_emit_cg_move);
EMIT_C(mmf_emit_cg_limit);
EMIT_C(mmf_emit_cg_reclaim);
EMIT_C(mmf_emit_memfd_create);
EMIT_C(mmf_emit_memfd_secret);
EMIT_C(mmf_emit_devzero);
EMIT_C(mmf_emit_memfd_seal);
EMIT_C(mmf_emit_fallocate);
EMIT_C(mmf_emit_ftruncate);
EMIT_C(mmf_emit_pwrite);
EMIT_C(mmf_emit_pread);
EMIT_C(mmf_emit_special_map);
EMIT_C(mmf_emit_prctl_merge);
EMIT_C(mmf_emit_ksm_wait);
EMIT_C(mmf_emit_thp_knob);

/* The runtime the calls above use; mmf_rt_keep after mmf_rt_c. */
extern const char mmf_rt_c[];
extern const char mmf_rt_keep[];

#endif
