// SPDX-License-Identifier: GPL-2.0
/* Rules of the tune family: KSM and THP knobs change how, not what, pages hold. */
#include "oracle/rules.h"

/* KSM merges only pages of equal content, and unmerges on write. */
MMF_RULE_NEUTRAL(prctl_merge)
/* Scans merge equal pages: contents stay. */
MMF_RULE_NEUTRAL(ksm_wait)
/* Folio sizes are not contents. */
MMF_RULE_NEUTRAL(thp_knob)
