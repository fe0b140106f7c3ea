/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's end of a guest's findings channel (vm/vm.h, store/wire.h):
 * each finding is saved into the crash store, with the console before it
 * as its log unless the guest sent one, and only then answered, so that
 * a guest that printed a finding has it on the host's disk.
 */
#ifndef MMF_CAMPAIGN_RECEIVE_H
#define MMF_CAMPAIGN_RECEIVE_H

#include <stdio.h>

#include "store/store.h"
#include "store/tally.h"
#include "util/util.h"

struct mmf_receiver {
	const char *store;		/* the crash store's directory */
	const char *kernel, *arch;
	const char *vmlinux;		/* symbolize with it; NULL: don't */
	struct mmf_tally *tally;	/* each finding saved is added */
	FILE *info;			/* "mmfuzz: WHO: REPORT: ..." lines; NULL: none */
	const char *who;		/* e.g. "vm 0" */
	const char *origin;		/* a finding's found_by unless it has one, NULL: none */
	/* Else the seeds' index (campaign/seeds.h): "seed SOURCE" for a finding
	 * whose program (its last one) is a seed as it is, "fuzzer" otherwise.
	 */
	const char *seeds;
	int received;
	struct mmf_store_group group;	/* the last program's reports: one bug */
	struct strbuf buf;		/* bytes not yet taken */
};

/*
 * Take what fd (non-blocking) has now; console/clen is the guest's console
 * so far. 0, or -1 and err when the store could not be written (the
 * finding is not answered then).
 */
int mmf_receive(struct mmf_receiver *r, int fd, const char *console, size_t clen,
		char *err, size_t n);
void mmf_receiver_free(struct mmf_receiver *r);

/*
 * Save one crash into the store as a finding of the run: symbolized if
 * vmlinux is set, added to the tally unless boot, a line on info with how
 * long after arrived_ms it was on disk. A report of the same program as
 * the last one (within MMF_STORE_GROUP_MS) counts to that one's bug. 0,
 * or -1 and err.
 */
int mmf_receive_save(struct mmf_receiver *r, struct mmf_crash *c, const char *store,
		     bool boot, uint64_t arrived_ms, char *err, size_t n);

/* The last n programs of an execution log (their "# mmfuzz: executing" marks). */
const char *mmf_last_progs(const char *log, size_t len, int n);
/*
 * The byte form of the last program of an execution log (a log without
 * marks is one program) into buf; its length, 0 if it does not parse.
 */
size_t mmf_last_prog_bytes(const char *log, uint8_t *buf, size_t cap);

#endif
