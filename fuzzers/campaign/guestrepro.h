/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reproduction in guests: mmf_repro_ops.run over a guest whose init serves
 * requests on its control port (mmfuzz repro --serve). A guest is kept
 * while runs leave its kernel clean; one that printed a kernel report,
 * died or hung is replaced by a fresh one before the next run, so every
 * kernel report comes from a kernel that had none before. The first boot
 * is saved at its snapshot point (kvm/init), before it serves, into
 * workdir/snapshot; a replacement is that guest restored, as campaigns
 * restart theirs, and is booted only when restoring fails.
 */
#ifndef MMF_GUESTREPRO_H
#define MMF_GUESTREPRO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/prog.h"
#include "repro/repro.h"
#include "util/util.h"
#include "vm/vm.h"

struct mmf_guest_repro_opts {
	struct mmf_vm_guest guest;	/* guest_args: more 'mmfuzz repro --serve' options */
	const char *workdir;	/* boot-N/ with disks and console.log */
	/* One program, the guest's --timeout; a request's, under KVM (scaled by
	 * the slowdown).
	 */
	int64_t timeout_ms;
	FILE *info;		/* "mmfuzz: ..." progress lines, NULL: none */
	/* Coverage focus text (cover/focus.h) sent after each boot, NULL: all. */
	const char *focus;
};

struct mmf_guest_repro;

struct mmf_guest_repro *mmf_guest_repro_new(const struct mmf_guest_repro_opts *o);
/* Boot a guest now if none runs (else the next request does): 0 or -1. */
int mmf_guest_repro_start(struct mmf_guest_repro *g);
/* mmf_repro_ops.run: ctx is a struct mmf_guest_repro. */
int mmf_guest_repro_run(void *ctx, const struct mmf_prog *progs, int n, const char *title);
/* mmf_repro_ops.log beside mmf_guest_repro_run: a line on the guest's info. */
void mmf_guest_repro_log(void *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * Run progs[0..n) concurrently once; append every report's title, one per
 * line. 0, or -1 when no guest boots or the programs could not be run.
 */
int mmf_guest_repro_titles(struct mmf_guest_repro *g, const struct mmf_prog *progs, int n,
			   struct strbuf *titles);

/*
 * One program with kernel coverage (MMF_SERVE_COVER). outcome: the run's
 * status name, or "died", "hung", "failed" (no KCOV, or not run); the
 * reports of the guest's oracles and of its console (kernel: true), whose
 * console (the request's) is then kept, and the guest replaced; edges: the
 * hit counts (MMF_GUEST_COVER_EDGES, zeroed first); pcs: distinct PCs.
 */
#define MMF_GUEST_COVER_EDGES	65536
#define MMF_GUEST_COVER_REPORTS	8

#define MMF_GUEST_COUNTERS	4

/* A traced call (MMF_SERVE_TRACE): its result, its range's page states after it. */
struct mmf_guest_call {
	int si, party;		/* statement, and -1 for the main line or its block */
	int64_t res;		/* >= 0, or -errno */
	int nstates;
	uint8_t states[MMF_SERVE_TRACE_PAGES];
};

struct mmf_guest_cover {
	char outcome[16];
	char feedback[16];	/* what the map holds: "kcov+state", or "state" */
	uint64_t run_ns;	/* the program's run in the guest */
	uint64_t user_ns, sys_ns;	/* its CPU time there, user and kernel */
	uint64_t phase_ns[MMF_SERVE_PHASES];	/* where its run went */
	int nr_reports;
	struct {
		char *title, *body;
		bool kernel;
	} rep[MMF_GUEST_COVER_REPORTS];
	struct strbuf console;
	uint8_t *edges;
	uint64_t *pcs;
	size_t nr_pcs, cap_pcs;
	/* mmf_guest_repro_trace()'s: each call; RssAnon, VmSwap, VmLck, RssShmem (kB) */
	struct mmf_guest_call *calls;
	int nr_calls, cap_calls;
	bool has_counters;
	long counters[MMF_GUEST_COUNTERS];
};

void mmf_guest_cover_init(struct mmf_guest_cover *c);
void mmf_guest_cover_free(struct mmf_guest_cover *c);
/*
 * Run benchmark name runs times in the guest; append one JSON line per run
 * (bench/bench.h). With c, the kernel's coverage of all its tasks: c's pcs
 * (the guest's focus's), nothing on a kernel without KCOV. A run the
 * kernel ended (a report, a guest that died or went silent) adds its
 * titles to titles, one a line. Returns the runs done, or -1 (no guest,
 * or the benchmark itself failed).
 */
int mmf_guest_repro_bench(struct mmf_guest_repro *g, const char *name, int runs,
			  struct strbuf *json, struct strbuf *titles, struct mmf_guest_cover *c);
/* syzkaller's title of a guest that died ("died") or went silent ("hung") without a report. */
const char *mmf_guest_silent_title(const char *outcome);
/* 0, or -1 when no guest boots. */
int mmf_guest_repro_cover(struct mmf_guest_repro *g, const struct mmf_prog *p,
			  struct mmf_guest_cover *c);
/*
 * One program with its behaviour trace (MMF_SERVE_TRACE) into c: outcome,
 * reports and console as mmf_guest_repro_cover(), calls and counters; no
 * coverage. 0, or -1 when no guest boots.
 */
int mmf_guest_repro_trace(struct mmf_guest_repro *g, const struct mmf_prog *p,
			  struct mmf_guest_cover *c);
/* Guests booted so far. */
int mmf_guest_repro_boots(const struct mmf_guest_repro *g);
/*
 * Stop the guest: the next request boots a fresh one, and so does every
 * later one, none restored (a benchmark run's boot of its own).
 */
void mmf_guest_repro_restart(struct mmf_guest_repro *g);
/* Stop the guest, free g. */
void mmf_guest_repro_free(struct mmf_guest_repro *g);

#endif
