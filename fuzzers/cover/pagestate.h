/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A page's state as the executor reads it from pagemap and kpageflags, a
 * byte: the state feedback's key (exec/feedback.h) and the behaviour
 * trace's value (mmfuzz validate compares it between kernels).
 */
#ifndef MMF_COVER_PAGESTATE_H
#define MMF_COVER_PAGESTATE_H

#include <stddef.h>
#include <stdint.h>

enum {
	MMF_PST_PRESENT = 1,
	MMF_PST_SWAP = 2,
	MMF_PST_EXCL = 4,	/* mapped exclusively (anonymous) */
	MMF_PST_FILE = 8,	/* a file page, or shared anonymous */
	MMF_PST_THP = 16,	/* part of a large folio */
	MMF_PST_MLOCK = 32,
};

/* "present,exclusive,thp", "swapped", "none": the state in words, into buf. */
const char *mmf_page_state_name(uint8_t st, char *buf, size_t n);

#endif
