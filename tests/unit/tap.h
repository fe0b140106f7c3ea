/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal assertions for unit tests: a failed CHECK prints and exits 1. */
#ifndef MMF_TEST_TAP_H
#define MMF_TEST_TAP_H

#include <stdio.h>
#include <stdlib.h>

static int tap_checks;

#define CHECK(cond, ...)							\
	do {									\
		tap_checks++;							\
		if (!(cond)) {							\
			fprintf(stderr, "%s:%d: CHECK(%s) failed: ",		\
				__FILE__, __LINE__, #cond);			\
			fprintf(stderr, __VA_ARGS__);				\
			fputc('\n', stderr);					\
			exit(1);						\
		}								\
	} while (0)

#define TEST_DONE()								\
	do {									\
		printf("ok: %d checks\n", tap_checks);				\
		return 0;							\
	} while (0)

#endif
