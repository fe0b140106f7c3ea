/* SPDX-License-Identifier: GPL-2.0 */
/* Running reproducer candidates on the running kernel, for mmf_repro(). */
#ifndef MMF_NATIVE_H
#define MMF_NATIVE_H

#include "exec/exec.h"

/*
 * mmf_repro_ops.run for the running kernel: run progs[0..n) concurrently,
 * each in its own runner process, with ctx a struct mmf_exec_opts whose
 * kmsg oracle is read once after all of them.
 */
int mmf_native_run(void *ctx, const struct mmf_prog *progs, int n, const char *title);

#endif
