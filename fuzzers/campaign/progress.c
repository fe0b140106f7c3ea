// SPDX-License-Identifier: GPL-2.0
/* The campaign's progress line, one format for both engines (campaign.h). */
#include <stdio.h>

#include "campaign/campaign.h"
#include "util/util.h"

void mmf_progress_print(FILE *f, const struct mmf_progress *p)
{
	double secs = p->ms / 1000.0;
	char left[24];

	fprintf(f, "[%6.0fs] programs %lld (%.2f/s)", secs, p->programs,
		secs > 0 ? p->programs / secs : 0.0);
	if (p->pcs >= 0)
		fprintf(f, " pcs %lld edges %lld", p->pcs, p->edges);
	if (p->queue >= 0)
		fprintf(f, " queue %lld", p->queue);
	fprintf(f, " findings %ld (%ld new) boots %d restarts %d, %s left\n", p->found,
		p->found_new, p->boots, p->restarts, mmf_fmt_left(left, p->left_ms / 1000));
	fflush(f);
}
