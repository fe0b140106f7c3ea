// SPDX-License-Identifier: GPL-2.0
/* Rules of the swap family: pages swap out and back in unchanged. */
#include "oracle/rules.h"

/* swapoff brings every page back in as it was. */
MMF_RULE_NEUTRAL(swapoff)
/* A new device only changes where pages may go. */
MMF_RULE_NEUTRAL(swapon)
