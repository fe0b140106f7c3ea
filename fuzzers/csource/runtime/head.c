// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NR_MAPS		8
#define SLOT_PAGES	1024
#define ARENA_PAGES	(NR_MAPS * SLOT_PAGES)
#define NR_FILES	4
#define NR_CHILDREN	4
#define NR_SWAPS	4
#define MAX_THREADS	4

/* How a call's result must match the one the expectations assume. */
enum guard {
	GUARD_NONE,	/* they do not depend on it */
	GUARD_SIGN,	/* success or failure */
	GUARD_EXACT,	/* the value: pages done, where mremap put the range */
};

struct stmt {
	const char *text;	/* the call as the program writes it */
	enum guard guard;
	long want;		/* the result the expectations assume */
	int known_page;		/* a checked arena page after it, -1 none */
};

/*
 * Arena pages [page, page + npages) of a read and what each must hold: one
 * of nvals words, each the pattern a write of tag stored at the arena page
 * shift pages away (mremap moves content), or zero for tag 0.
 */
struct expect {
	int page, npages, nvals;
	struct { int tag, shift; } v[4];
	int hist[4];		/* statements that touched the pages, newest first */
	const char *what;	/* "<backing> page", for the title */
};
