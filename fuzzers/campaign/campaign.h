/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A campaign: N guests fuzzing in parallel until the budget is spent.
 *
 * - The reports of the guests' own oracles arrive on each guest's findings
 *   channel (vm/vm.h) and are saved into the crash store with the program
 *   that made them and the console around them before the guest hears
 *   back; the guest goes on fuzzing (its kernel is healthy).
 * - Each guest's console is read live; a kernel report, a hang or a death
 *   is saved with the console log and the last programs the guest
 *   executed, and the guest is restarted (its kernel's state is suspect).
 * - A boot crash is kept apart (boot-crashes/), and so is a boot failure
 *   (QEMU exits at once, the kernel prints nothing, the fuzzer never
 *   starts): neither is a finding. Boots back off after a failure, and
 *   MMF_CAMPAIGN_BOOT_FAILS in a row end the campaign with an error.
 */
#ifndef MMF_CAMPAIGN_H
#define MMF_CAMPAIGN_H

#include <stdint.h>
#include <stdio.h>

#include "store/tally.h"
#include "vm/vm.h"

#define MMF_CAMPAIGN_BOOT_FAILS	3

struct mmf_campaign_opts {
	struct mmf_vm_guest guest;	/* guest_args: more 'mmfuzz fuzz' options */
	const char *vmlinux;	/* symbolize reports with it; NULL: don't */
	const char *out;	/* crashes/, boot-crashes/, vm-N/ go here */
	const char *store;	/* the crash store; NULL: OUT/crashes */
	int vms;
	int64_t duration_ms;
	int64_t hang_ms;	/* 0: scaled default */
	/*
	 * Self-test of the crash path: boot k provokes LKDTM type k (cycling);
	 * the campaign ends once each type's boot gave a kernel report.
	 */
	const char *const *lkdtm;
	int nr_lkdtm;
	/* The AFL++ engine (campaign/afl.h): seeds, the coverage focus (a
	 * spec of mmf_focus_load() in focus_vmlinux; NULL: all PCs), and the
	 * serving guests' stressors (NULL: their default).
	 */
	const char *const *corpus;
	const char *focus, *focus_vmlinux;
	const char *weights;	/* a file of mmf_focus_weights_parse(), NULL: none */
	const char *stress;
	/* The mmfuzz engine: record the PCs the guests reach (OUT/vm-N/pcs). */
	bool cover;
	/*
	 * Restart a guest after a finding from a snapshot of it taken at its
	 * first boot's snapshot point (vm.h) instead of booting it; not with
	 * lkdtm, whose boots differ.
	 */
	bool no_snapshot;
	/*
	 * mmfuzz vm: each guest boots once, fuzzes for the budget and powers
	 * off; a finding ends it and nothing restarts it (a failed boot is
	 * retried). The campaign ends when every guest has.
	 */
	bool once;
	volatile int *stop;	/* set by a signal handler */
	FILE *info;
	FILE *echo;		/* a copy of every console, NULL for none */
	bool quiet;		/* no progress lines on info (the summary stays) */
};

/*
 * The progress line both engines print on info every MMF_PROGRESS_MS:
 * "[   30s] programs 305 (1.02/s) pcs 12707 edges 14330 queue 25 findings
 * 3 (1 new) boots 2 restarts 1, 5m30s left"; pcs, edges and queue where
 * known (-1: not printed).
 */
#define MMF_PROGRESS_MS		10000
struct mmf_progress {
	uint64_t ms;		/* since the start */
	long long programs, pcs, edges, queue;
	long found, found_new;	/* findings this run, and bugs new to the store */
	int boots, restarts;
	int64_t left_ms;
};
void mmf_progress_print(FILE *f, const struct mmf_progress *p);

struct mmf_campaign_stats {
	int boots, restarts, boot_crashes, boot_failures, reports, hangs, lost;
	int restored;		/* of restarts: from a snapshot */
	int channel;		/* of reports: those that came on a findings channel */
	uint64_t programs;
	struct mmf_tally tally;	/* every finding saved, by title */
};

/*
 * 0, or -1 with a message in err (nothing could be started, the store
 * could not be written, or the guests failed to boot too often); st is
 * filled in either case (mmf_tally_free(&st->tally) after).
 */
int mmf_campaign_run(const struct mmf_campaign_opts *o, struct mmf_campaign_stats *st,
		     char *err, size_t n);

/*
 * The commands' campaign: run it with the AFL++ engine (afl) or the
 * guests' own, then print what it did and its findings by title on
 * o->info and write them to OUT/summary.json. The exit status
 * (MMF_EXIT_CLEAN, _FOUND or _ERROR; errors on stderr, after who).
 */
int mmf_campaign_main(const struct mmf_campaign_opts *o, bool afl, const char *who);

/*
 * OUT/focus: the text of o->focus's ranges in o->focus_vmlinux, ended by
 * MMF_COVER_FOCUS_END, for the guests; *path malloc'ed. 0, or -1 and err.
 */
int mmf_campaign_write_focus(const struct mmf_campaign_opts *o, char **path, char *err,
			     size_t n);

/* The crash store's directory of o, malloc'ed. */
char *mmf_campaign_store(const struct mmf_campaign_opts *o);

#endif
