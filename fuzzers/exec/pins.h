/* SPDX-License-Identifier: GPL-2.0 */
/* Run functions of the pin calls (pins.c), rows of mmf_exec_calls[]. */
#ifndef MMF_EXEC_PINS_H
#define MMF_EXEC_PINS_H

#include "exec/interp.h"

long mmf_run_vmsplice(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_run_pipe_read(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_run_uring_register(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_run_uring_read_fixed(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_run_uring_write_fixed(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_run_dio_file(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_run_dio_read(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_run_dio_write(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_run_process_vm_readv(struct interp *in, const struct mmf_stmt *s, int si);
long mmf_run_process_vm_writev(struct interp *in, const struct mmf_stmt *s, int si);

#endif
