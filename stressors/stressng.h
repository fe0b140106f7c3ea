/* SPDX-License-Identifier: GPL-2.0 */
/* stress-ng's output turned into a report title (pure, for the unit test). */
#ifndef MMF_STRESS_STRESSNG_H
#define MMF_STRESS_STRESSNG_H

#include <stddef.h>

/*
 * "stress-ng: " and the message of the first "fail:" line of out, pid
 * removed and numbers written as N, so that two runs of one failure get
 * one title. 1, or 0 (title untouched) if out has no such line.
 */
int mmf_stressng_title(const char *out, char *title, size_t n);

#endif
