/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the shadow model: helpers of shadow.c that rule files share. */
#ifndef MMF_SHADOW_INT_H
#define MMF_SHADOW_INT_H

#include "oracle/shadow.h"

/* A new object of npages zero (or unknown) pages; -1 when none is free. */
int mmf_shadow_obj_new(struct mmf_shadow *sh, int npages, bool unknown);
/* Page pg of object o, NULL when o is none or pg is past its end. */
struct mmf_vset *mmf_shadow_obj_page(struct mmf_shadow *sh, int o, int pg);
/* Arena page idx: mapping unknown from now on. */
void mmf_shadow_lose_page(struct mmf_shadow *sh, int idx);
/* v becomes v or zero. */
void mmf_vset_union_zero(struct mmf_vset *v);
/* Arena page idx zapped as by MADV_DONTNEED; maybe: the call may have failed. */
void mmf_shadow_zap_page(struct mmf_shadow *sh, int idx, bool maybe);

#endif
