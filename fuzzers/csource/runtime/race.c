// SPDX-License-Identifier: GPL-2.0
/*
 * A racing group (race(...) before its first block): its function runs
 * once per round, the parties meeting as the executor has them meet
 * (racesync). After the first round the expectations, made for one pass,
 * no longer hold: checking stops.
 */
#include <sys/mman.h>

static struct race_sync *race_sync;
static cpu_set_t race_cpus;
static int race_delayed;
static int64_t race_delay_ns;

/* Party 0 is the main line, after it opened the group's last block. */
static void race_meet(int party, int blocks)
{
	race_pin(party, &race_cpus);
	if (party)
		race_arrive(race_sync, party);
	else
		race_release(race_sync, blocks);
	if (party == race_delayed)
		race_spin(race_delay_ns);
}

static long race_run(void (*group)(void), int rounds, int delayed, int64_t lo, int64_t hi)
{
	if (!race_sync) {
		void *m = mmap(NULL, sizeof(*race_sync), PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			return -errno;
		race_sync = m;
		sched_getaffinity(0, sizeof(race_cpus), &race_cpus);
	}
	race_delayed = delayed;
	for (int r = 0; r < rounds; r++) {
		race_delay_ns = race_sweep(r, rounds, lo, hi);
		if (verbose)
			say("race round %d of %d, delay %lld ns\n", r + 1, rounds,
			    (long long)race_delay_ns);
		if (r)
			diverged = 1;
		race_arm(race_sync);
		group();
	}
	sched_setaffinity(0, sizeof(race_cpus), &race_cpus);
	return 0;
}
