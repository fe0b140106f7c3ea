// SPDX-License-Identifier: GPL-2.0
/* Rules of the place family: migration copies a page whole, contents stay. */
#include "oracle/rules.h"

/* A policy, and the migration MPOL_MF_MOVE does. */
MMF_RULE_NEUTRAL(mbind)
/* Migration copies each page whole. */
MMF_RULE_NEUTRAL(move_pages)
/* As move_pages, for every page of the process. */
MMF_RULE_NEUTRAL(migrate_pages)
/* Compaction migrates pages: contents stay. */
MMF_RULE_NEUTRAL(compact)
