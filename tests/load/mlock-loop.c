// SPDX-License-Identifier: GPL-2.0
/*
 * Load for proving the suite on a busy host (tests/load/busy-host.sh):
 * lock and unlock MB of memory forever, holding each state for MS
 * milliseconds (0: as fast as the kernel allows), as another process on
 * the machine might.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static void hold(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	if (ms)
		nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	long mb = argc > 1 ? atol(argv[1]) : 16, ms = argc > 2 ? atol(argv[2]) : 0;
	size_t len = mb << 20;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (argc > 3 || mb <= 0 || ms < 0 || p == MAP_FAILED) {
		fprintf(stderr, "usage: mlock-loop [MB [MS]]\n");
		return 1;
	}
	memset(p, 1, len);
	for (;;) {
		if (mlock(p, len))
			perror("mlock");
		hold(ms);
		munlock(p, len);
		hold(ms);
	}
}
