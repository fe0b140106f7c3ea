/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-log oracle: follows /dev/kmsg and the taint mask, and turns what
 * the kernel printed since the last poll into reports (the report parser
 * gives them syzkaller-style titles).
 */
#ifndef MMF_KMSG_H
#define MMF_KMSG_H

#include "util/util.h"

struct mmf_kmsg;

/* Follow the log from now on; NULL with errno on failure. */
struct mmf_kmsg *mmf_kmsg_open(void);
void mmf_kmsg_close(struct mmf_kmsg *k);

/*
 * Read what arrived since the last call, once the mms of tasks that have
 * exited are freed (their reports are in). For each report found, call
 * fn(title, text, arg). A taint flag of the BUG/WARN kind that appeared
 * without any recognised report is a report of its own. Returns the
 * number of reports.
 */
int mmf_kmsg_poll(struct mmf_kmsg *k,
		  void (*fn)(const char *title, const char *text, void *arg), void *arg);

#endif
