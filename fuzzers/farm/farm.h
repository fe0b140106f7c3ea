/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Farms: mmfuzz's campaigns as LAVA jobs, and their findings back into a
 * crash store.
 *
 * A shard is one LAVA job of device type qemu: a guest that boots
 * mmfuzz's kernel and initramfs with kvm/init in farm mode
 * (mmfuzz.mode=farm), fuzzes for the budget with its seed, and ends. LAVA
 * keeps the guest's console and nothing else, so the guest puts there
 * its execution log, its oracles' findings as frame lines (store/wire.h)
 * and a test case line per finding ("mmfuzz-case: CLASS: fail", "pass"
 * for the classes without one at the end), which the job's test monitor
 * turns into LAVA test results, a kernel panic among them. Kernel reports
 * are on the console anyway, as in a campaign.
 *
 * The collector reads job logs (LAVA's YAML log, as lava-run writes it
 * and lava-server serves it, or a plain console log), takes each finding
 * with its program and console slice into a store laid out as a nightly
 * store (nightly/nightly.h), one night entry per batch, and marks each log
 * collected so that a log given twice counts once. Collectors may share a
 * store: the crash store and the marks are safe for that.
 */
#ifndef MMF_FARM_H
#define MMF_FARM_H

#include <stdint.h>
#include <stdio.h>

#include "util/util.h"
#include "vm/vm.h"

/* The lines of the guest the job's test monitor starts and ends with (kvm/init). */
#define MMF_FARM_START	"mmfuzz-init: farm: start"
#define MMF_FARM_END	"mmfuzz-init: farm: end"

#define MMF_FARM_MAX_ARGS	16

struct mmf_farm_job_opts {
	/* kernel, initrd: URLs (a path becomes file://); no append */
	struct mmf_vm_guest guest;
	int shard, shards;		/* shard of shards, from 1 */
	uint64_t seed;			/* the shard's own */
	int64_t budget_ms;
	int zram_mb;
	const char *name;		/* the batch's name, in each job's name */
};

/* The LAVA job definition of one shard. 0, or -1 and err. */
int mmf_farm_job(const struct mmf_farm_job_opts *o, struct strbuf *yaml, char *err, size_t n);
/*
 * OUT/shard-K.yaml for each shard of o, K from 1, with seed o->seed + K - 1,
 * a line on info for each: all are made before one is written, and none
 * replaces a file. 0, or -1 and err.
 */
int mmf_farm_jobs_write(const struct mmf_farm_job_opts *o, const char *out, FILE *info,
			char *err, size_t n);

/*
 * The device dictionary lava-run needs to run such jobs on this host: what
 * lava-server renders from its qemu device type for the jobs' context.
 */
void mmf_farm_device(const struct mmf_farm_job_opts *o, struct strbuf *yaml);

/* ---- a job's log ------------------------------------------------------- */

struct mmf_lava_log {
	struct strbuf console;	/* the guest's console lines, each ending in \n */
	/* When each console line came: its end offset and ms since the log began. */
	size_t *ends;
	uint64_t *ms;
	size_t nr;
	uint64_t end_ms;	/* the log's last entry */
	uint64_t target_ms;	/* its last console line of the guest's own (not an echo) */
	bool lava;		/* a LAVA log, not a plain console */
	/* LAVA's word on the test monitor, the job's end: "" if it has none. */
	char result[64];
};

/*
 * Parse a LAVA job log (YAML, an entry a line) or, when buf is not one, a
 * plain console log. 0, or -1 and err (a line that is no entry: a log cut
 * in the middle of a line, or no log at all).
 */
int mmf_lava_log_parse(const char *buf, size_t len, struct mmf_lava_log *l, char *err,
		       size_t n);
void mmf_lava_log_free(struct mmf_lava_log *l);

/* ---- collecting -------------------------------------------------------- */

struct mmf_farm_collect_opts {
	const char *store;
	const char *const *logs;
	int nr_logs;
	const char *vmlinux;	/* symbolize with it; NULL: don't */
	int64_t hang_ms;	/* a console silent this long before the log ends: a hang */
	FILE *info;		/* "farm: ..." lines */
};

/*
 * Collect the logs into the store. MMF_EXIT_FOUND when a finding was
 * collected, MMF_EXIT_CLEAN when none, -1 with err when a log or the
 * store was bad (nothing is saved then) or a finding was lost in a log
 * (the rest is saved).
 */
int mmf_farm_collect(const struct mmf_farm_collect_opts *o, char *err, size_t n);

#endif
