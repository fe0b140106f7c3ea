/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A campaign: N guests fuzzing in parallel until the budget is spent. Each
 * guest's console is read live; a report, a hang or a death is saved into
 * the crash store with the console log and the last programs the guest
 * executed, and the guest is restarted. A boot crash is kept apart: it is
 * not a finding of the fuzzer.
 */
#ifndef MMF_CAMPAIGN_H
#define MMF_CAMPAIGN_H

#include <stdint.h>
#include <stdio.h>

#include "vm/vm.h"

struct mmf_campaign_opts {
	const struct mmf_vm_arch *arch;
	enum mmf_vm_accel accel;
	const char *kernel, *initrd;
	const char *vmlinux;	/* symbolize reports with it; NULL: don't */
	const char *out;	/* crashes/, boot-crashes/, vm-N/ go here */
	int vms, mem_mb, cpus;
	int64_t duration_ms;
	int64_t hang_ms;	/* 0: scaled default */
	const char *const *guest_args;	/* extra 'mmfuzz fuzz' options */
	/* Self-test of the crash path: boot k provokes LKDTM type k (cycling). */
	const char *const *lkdtm;
	int nr_lkdtm;
	volatile int *stop;	/* set by a signal handler */
	FILE *info;
};

struct mmf_campaign_stats {
	int boots, restarts, boot_crashes, reports, hangs, lost;
	uint64_t programs;
};

/* 0, or -1 with a message in err (nothing could be started). */
int mmf_campaign_run(const struct mmf_campaign_opts *o, struct mmf_campaign_stats *st,
		     char *err, size_t n);

#endif
