/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The C reproducer of a program: a standalone C file (libc headers only,
 * raw syscalls) that runs the program as the executor does and checks its
 * reads against what the shadow model predicted when the file was made. It
 * carries the text program in its leading comment.
 */
#ifndef MMF_CSOURCE_H
#define MMF_CSOURCE_H

#include "model/prog.h"

struct strbuf;

/* Append the reproducer of p to sb. */
void mmf_prog_csource(const struct mmf_prog *p, struct strbuf *sb);

#endif
