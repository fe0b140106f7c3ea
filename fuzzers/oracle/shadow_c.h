/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Track C rules of the shadow model: files changed through their file
 * descriptor (pwrite, fallocate, ftruncate), the kinds of file a slot may
 * hold, and mappings the kernel fills with its own pages.
 */
#ifndef MMF_SHADOW_C_H
#define MMF_SHADOW_C_H

#include "oracle/shadow.h"

/* What file slot fN holds, beyond the object's pages (sh->file_kind). */
enum mmf_file_kind {
	MMF_FILE_PLAIN,		/* memfd or tmpfs file: an object */
	MMF_FILE_HUGETLB,	/* hugetlbfs: no object, mappings lost */
	MMF_FILE_SECRET,	/* memfd_secret: an object, mappings VM_LOCKED */
	MMF_FILE_DEVZERO,	/* /dev/zero: every mapping is anonymous memory */
};

/* The word pwrite of tag stores in page pg of a file. */
uint64_t mmf_shadow_file_word(const struct mmf_shadow *sh, uint64_t tag, int pg);

/* Expected content of page pg of file fN; false when the model cannot tell. */
bool mmf_shadow_expect_file(const struct mmf_shadow *sh, int f, int pg, struct mmf_vset *out);

/* The rules of the track C calls (no-op for other calls); idx, n: range. */
void mmf_shadow_apply_c(struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n,
			long res);

#endif
