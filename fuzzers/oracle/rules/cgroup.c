// SPDX-License-Identifier: GPL-2.0
/* Rules of the cgroup family: charging and reclaim keep contents. */
#include "oracle/rules.h"

/* The pages are charged elsewhere, not changed. */
MMF_RULE_NEUTRAL(cg_move)
/* A lower limit reclaims: swapped or written back, contents stay. */
MMF_RULE_NEUTRAL(cg_limit)
/* Reclaim keeps contents, as swap does. */
MMF_RULE_NEUTRAL(cg_reclaim)
