/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running reproducer candidates on the running kernel, for mmf_repro(),
 * and the guest's end of reproduction in a guest (mmf_serve).
 */
#ifndef MMF_NATIVE_H
#define MMF_NATIVE_H

#include "exec/exec.h"

struct strbuf;

/*
 * Run progs[0..n) concurrently once, each in its own runner process, and
 * append the title of every report they gave, and then every report the
 * kernel log oracle (opts->kmsg, read once after all of them) saw, one per
 * line, to titles. 0, or -1 when a runner failed and nothing was reported.
 */
int mmf_native_titles(const struct mmf_exec_opts *opts, const struct mmf_prog *progs, int n,
		      struct strbuf *titles);

/* mmf_repro_ops.run for the running kernel: ctx is a struct mmf_exec_opts. */
int mmf_native_run(void *ctx, const struct mmf_prog *progs, int n, const char *title);

/*
 * Serve the host's requests (protocol in repro/repro.h) on fd, a guest's
 * control port: programs run with mmf_native_titles(), benchmarks with
 * knob changes journaled in j, and told to the stressors of run (NULL:
 * none) as the fuzzer's programs are; until the host closes its end.
 * Returns 0 then, -1 on a read error.
 */
struct mmf_journal;
struct mmf_stress_run;
int mmf_serve(int fd, const struct mmf_exec_opts *opts, struct mmf_journal *j,
	      struct mmf_stress_run *run);

#endif
