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
 * The engine of a campaign or vm run, and the AFL++ engine's setting in o:
 * engine is the user's --engine (NULL: afl where im's kernel has KCOV and
 * afl-fuzz is installed, else mmfuzz); o->focus NULL means "mm" where the
 * vmlinux is known (o->vmlinux, else the one beside the kernel), "all"
 * none; o->corpus empty means the project's corpus/. *afl says which.
 * 0, or -1 with a one-line reason in err (an unknown engine or focus, no
 * afl-fuzz, a focus with no vmlinux).
 */
int mmf_campaign_engine(struct mmf_campaign_opts *o, const char *engine,
			const struct mmf_vm_images *im, const char **corpus, bool *afl,
			char *err, size_t n);

/*
 * Run o's campaign with AFL++: seeds from o->corpus (text programs *.mmf
 * and byte-form files, AFL++ queues of earlier runs), findings into
 * OUT/crashes through the proxies, PCs reached into OUT/vm-N/pcs.
 * 0, or -1 with err; st counts programs and the findings by title.
 */
int mmf_afl_campaign_run(const struct mmf_campaign_opts *o, struct mmf_campaign_stats *st,
			 char *err, size_t n);

#endif
