// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stressors/hog.h"
#include "util/util.h"
#include "sys/cgroup.h"
#include "sys/sysfs.h"
#include "util/rand.h"

/*
 * Every pass touches a random 1/16 of the pages: a working set well below
 * the whole, so that a hog as big as the cgroup's limit swaps its cold
 * pages instead of thrashing into the OOM killer (cgroup v1 has no
 * memory.high to slow it down).
 */
#define PASS_US	200000
#define TOUCH	16

static void __attribute__((noreturn)) hog(uint64_t bytes)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t pages = bytes / pg, half = pages / 2;
	struct mmf_rand rnd;
	uint64_t *w;
	char *p;

	p = mmap(NULL, pages * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		_exit(1);
	mmf_rand_seed(&rnd, getpid());
	w = (uint64_t *)p;
	for (size_t i = 0; i < half * pg / sizeof(*w); i++)
		w[i] = mmf_rand64(&rnd);
	memset(p + half * pg, 0x6b, (pages - half) * pg);
	madvise(p + half * pg, (pages - half) * pg, MADV_MERGEABLE);
	for (;;) {
		/* Reads fault swapped pages in; a few writes keep them dirty. */
		for (size_t n = 0; n < pages / TOUCH; n++) {
			size_t i = mmf_rand_below(&rnd, pages);
			volatile char *c = p + i * pg;

			if (i < half && mmf_rand_oneof(&rnd, 4))
				*(volatile uint64_t *)c = mmf_rand64(&rnd);
			else
				(void)*c;
		}
		usleep(PASS_US);
	}
}

pid_t mmf_hog_start(struct mmf_cgroup *cg, uint64_t bytes)
{
	pid_t parent = getpid(), pid = fork();

	if (pid < 0)
		return mmf_sys_fail(errno, "fork the workload");
	if (pid == 0) {
		mmf_die_with_parent(parent, SIGKILL, 0);
		prctl(PR_SET_NAME, "mmfuzz-hog");
		if (cg && mmf_cg_attach(cg, getpid()) < 0)
			_exit(1);
		hog(bytes);
	}
	return pid;
}

void mmf_hog_stop(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}
