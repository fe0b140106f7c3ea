// SPDX-License-Identifier: GPL-2.0
/*
 * perf-hold: kvm/init runs it before the snapshot point, with the other
 * CPUs offline, and it holds one perf event for the guest's life. The
 * first perf event turns on a jump label in __schedule: kernel text
 * patched live, which under TCG has crashed guests ("Oops: int3" in
 * __schedule) while another CPU ran there. With this one held, the
 * fuzzer's own events patch nothing.
 *
 * A program of its own, not an mmfuzz command: the guest's mmfuzz comes
 * after the snapshot point (kvm/init), so that a new build of it restores
 * the saved guest rather than booting a new one. It prints "held" once
 * the event is open, then waits until killed; 1 when the open fails.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "runtime/perf.h"

int main(void)
{
	int fd = rt_perf_dummy_open();

	if (fd < 0) {
		fprintf(stderr, "perf-hold: perf_event_open: %s\n", strerror(-fd));
		return 1;
	}
	printf("held\n");
	fflush(stdout);
	for (;;)
		pause();
}
