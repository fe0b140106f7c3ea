/* SPDX-License-Identifier: GPL-2.0 */
/* The C reproducer's pin calls (csource_pins.c): runtime, emitters, results. */
#ifndef MMF_CSOURCE_PINS_H
#define MMF_CSOURCE_PINS_H

#include "model/prog.h"

struct gen;
struct strbuf;
struct mmf_shadow;

extern const char mmf_rt_pins_own[], mmf_rt_pipe[], mmf_rt_uring[], mmf_rt_dio[],
	mmf_rt_pvm[];

#define CS_EMIT(name) \
	void name(struct strbuf *sb, const struct mmf_stmt *s, int si, const struct gen *g)
CS_EMIT(mmf_cs_vmsplice);
CS_EMIT(mmf_cs_pipe_read);
CS_EMIT(mmf_cs_uring_register);
CS_EMIT(mmf_cs_uring_read);
CS_EMIT(mmf_cs_uring_write);
CS_EMIT(mmf_cs_dio_file);
CS_EMIT(mmf_cs_dio_read);
CS_EMIT(mmf_cs_dio_write);
CS_EMIT(mmf_cs_pvm_readv);
CS_EMIT(mmf_cs_pvm_writev);
#undef CS_EMIT

#define CS_PREDICT(name) \
	long name(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n)
CS_PREDICT(mmf_cs_predict_vmsplice);
CS_PREDICT(mmf_cs_predict_pipe_read);
CS_PREDICT(mmf_cs_predict_register);
CS_PREDICT(mmf_cs_predict_fixed);
CS_PREDICT(mmf_cs_predict_dio);
CS_PREDICT(mmf_cs_predict_pvm);
#undef CS_PREDICT

#endif
