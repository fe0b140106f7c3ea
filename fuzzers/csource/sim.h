/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the C reproducer expects of a program, worked out when the file is
 * made: the shadow model runs over the program fed the result each call is
 * predicted to return (its emitter's prediction), and each read gets the
 * values the model then expects of its pages.
 */
#ifndef MMF_CSOURCE_SIM_H
#define MMF_CSOURCE_SIM_H

#include "model/prog.h"
#include "util/util.h"

/* How a call's result must match the prediction: the reproducer's guard. */
enum mmf_cs_guard {
	MMF_CS_GUARD_NONE,	/* the expectations do not depend on it */
	MMF_CS_GUARD_SIGN,	/* success or failure */
	MMF_CS_GUARD_EXACT,	/* the value */
};

/* What the simulation found out about one statement. */
struct mmf_cs_info {
	long want;		/* the predicted result */
	enum mmf_cs_guard guard;
	int known_page;		/* first page the model can tell after it, -1 none */
	int nrows;		/* reads: rows of expect_N[] */
};

struct mmf_cs_sim {
	const struct mmf_prog *p;
	struct mmf_cs_info info[MMF_MAX_STMTS];
	struct strbuf data;	/* the expect_N[] tables of the reads */
};

/* Fill sim->info[] and sim->data for sim->p (data initialized). */
void mmf_cs_simulate(struct mmf_cs_sim *sim);

#endif
