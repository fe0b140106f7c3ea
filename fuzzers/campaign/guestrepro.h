/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reproduction in guests: mmf_repro_ops.run over a guest whose init serves
 * requests on its control port (mmfuzz repro --serve). A guest is kept
 * while runs leave its kernel clean; one that printed a kernel report,
 * died or hung is replaced by a freshly booted one before the next run,
 * so every kernel report comes from a kernel that had none before.
 */
#ifndef MMF_GUESTREPRO_H
#define MMF_GUESTREPRO_H

#include <stdint.h>
#include <stdio.h>

#include "model/prog.h"
#include "util/util.h"
#include "vm/vm.h"

struct mmf_guest_repro_opts {
	const struct mmf_vm_arch *arch;
	enum mmf_vm_accel accel;
	const char *kernel, *initrd;
	const char *workdir;	/* boot-N/ with disks and console.log */
	int mem_mb, cpus;
	const char *append;	/* more kernel command line, NULL for none */
	int64_t timeout_ms;	/* one request, under KVM: scaled by the slowdown */
	/* More options of the guest's 'mmfuzz repro --serve', NULL-terminated. */
	const char *const *guest_args;
	FILE *info;		/* "mmfuzz: ..." progress lines, NULL: none */
};

struct mmf_guest_repro;

/*
 * Fill o's arch, kernel, initrd and accelerator for an arch name and a
 * kernel (NULL or "default": the newest fuzzing kernel, else Debian's;
 * "debian"; or an image), building the initramfs if needed; im holds the
 * paths and must outlive the guests. 0, or -1 and err.
 */
int mmf_guest_repro_setup(struct mmf_guest_repro_opts *o, const char *arch, const char *kernel,
			  const char *initrd, struct mmf_vm_images *im, char *err, size_t n);

struct mmf_guest_repro *mmf_guest_repro_new(const struct mmf_guest_repro_opts *o);
/* mmf_repro_ops.run: ctx is a struct mmf_guest_repro. */
int mmf_guest_repro_run(void *ctx, const struct mmf_prog *progs, int n, const char *title);
/*
 * Run progs[0..n) concurrently once; append every report's title, one per
 * line. 0, or -1 when no guest boots or the programs could not be run.
 */
int mmf_guest_repro_titles(struct mmf_guest_repro *g, const struct mmf_prog *progs, int n,
			   struct strbuf *titles);
/*
 * Run benchmark name runs times in the guest; append one JSON line per run
 * (bench/bench.h). Returns the runs done, or -1.
 */
int mmf_guest_repro_bench(struct mmf_guest_repro *g, const char *name, int runs,
			  struct strbuf *json);
/* Guests booted so far. */
int mmf_guest_repro_boots(const struct mmf_guest_repro *g);
/* Stop the guest, free g. */
void mmf_guest_repro_free(struct mmf_guest_repro *g);

#endif
