/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AFL++ engine of a campaign: one afl-fuzz per guest (-M for the
 * first, -S for the rest, one sync directory OUT/afl), each driving its
 * own serving guest through 'mmfuzz afl-target' (campaign/afltarget.h).
 * The queue lives on the host: a guest's death costs its boot, not the
 * corpus, and a later campaign on the same OUT resumes from it, or one
 * given --corpus OUT starts from that run's queues.
 */
#ifndef MMF_AFL_H
#define MMF_AFL_H

#include "campaign/campaign.h"

/* afl-fuzz is installed. */
bool mmf_afl_available(void);

/*
 * Run o's campaign with AFL++: seeds from o->corpus (text programs *.mmf
 * and byte-form files, AFL++ queues of earlier runs), findings into
 * OUT/crashes through the proxies, PCs reached into OUT/vm-N/pcs.
 * 0, or -1 with err; st counts programs and the findings by title.
 */
int mmf_afl_campaign_run(const struct mmf_campaign_opts *o, struct mmf_campaign_stats *st,
			 char *err, size_t n);

#endif
