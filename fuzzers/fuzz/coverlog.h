/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mmfuzz engine's coverage record: the fuzz loop does not steer by
 * KCOV, but with --cover-log it traces its programs and writes each PC
 * new to the run ("0x..." lines) and, when it grew, the count of distinct
 * edges ("# edges N") to the log, a guest's virtio port whose bytes the
 * host keeps (vm/vm.h cover_log): the same figures as the AFL++ engine's.
 * The host may first give the focus on the same port (its input).
 */
#ifndef MMF_COVERLOG_H
#define MMF_COVERLOG_H

#include "exec/kcov.h"

struct mmf_cover_log;

/* NULL with errno when the log cannot be opened or the kernel has no KCOV. */
struct mmf_cover_log *mmf_cover_log_open(const char *path);
/* The map the executor fills (exec opts' cover). */
struct mmf_cover *mmf_cover_log_map(struct mmf_cover_log *l);
/* After each program: what its map holds that the run had not seen. */
void mmf_cover_log_take(struct mmf_cover_log *l);
void mmf_cover_log_close(struct mmf_cover_log *l);

#endif
