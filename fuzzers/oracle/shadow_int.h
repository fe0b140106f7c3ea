/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the shadow model: the helpers its rule files share (shadow.c). */
#ifndef MMF_SHADOW_INT_H
#define MMF_SHADOW_INT_H

#include "oracle/shadow.h"

/* The page's mapping is unknown from now on (and so is VmLck). */
void mmf_shadow_lose_page(struct mmf_shadow *sh, struct mmf_shadow_page *pg);
/* Record that statement si touched the page. */
void mmf_shadow_touch(struct mmf_shadow_page *pg, int si);
/* Arena page idx now holds w, as after a write: the object's page for a
 * shared view, the page's own otherwise.
 */
void mmf_shadow_store(struct mmf_shadow *sh, int idx, const struct mmf_vset *w);
/* Union of a and b (unknown when too many). */
void mmf_vset_union(struct mmf_vset *a, const struct mmf_vset *b);
/* The snapshot a populate that may break COW of a private file view takes. */
void mmf_shadow_maybe_cow(struct mmf_shadow *sh, int idx);
/* The userfaultfd calls' rules (shadow_uffd.c). */
void mmf_shadow_apply_uffd(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res);
/* A new object of npages zero (or unknown) pages; -1 when none is free. */
int mmf_shadow_obj_new(struct mmf_shadow *sh, int npages, bool unknown);
/* Page pg of object o, NULL when o is none or pg is past its end. */
struct mmf_vset *mmf_shadow_obj_page(struct mmf_shadow *sh, int o, int pg);
/* v becomes v or zero. */
void mmf_vset_union_zero(struct mmf_vset *v);
/* Arena page idx zapped as by MADV_DONTNEED; maybe: the call may have failed. */
void mmf_shadow_zap_page(struct mmf_shadow *sh, int idx, bool maybe);

#endif
