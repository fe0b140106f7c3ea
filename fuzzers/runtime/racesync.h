/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What makes the parties of a racing group meet: a barrier in memory that
 * threads and fork children share, each party pinned to a CPU of its own,
 * and a spin before the delayed one. The main line arms the barrier, opens
 * the blocks, each block arrives and spins, and the main line releases
 * them all at once when every block it started has arrived.
 *
 * One file for the executor and for the C reproducer, which carries its
 * text (Makefile): libc only, no symbols outside it.
 */
#ifndef MMF_RACESYNC_H
#define MMF_RACESYNC_H

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#define RACE_PARTIES		5	/* the main line and four blocks */
/* How long the main line waits for a block that never arrives. */
#define RACE_ARRIVE_NS		10000000000ll

struct race_sync {
	atomic_int arrived;
	atomic_int go;
	/* Per party: when it left the barrier, and on which CPU. */
	int64_t released_ns[RACE_PARTIES];
	int cpu[RACE_PARTIES];
};

static inline int64_t race_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* The delay of round r of rounds, swept from lo to hi. */
static inline int64_t race_sweep(int r, int rounds, int64_t lo, int64_t hi)
{
	return rounds > 1 ? lo + (hi - lo) * r / (rounds - 1) : lo;
}

/* Pin the caller to the party-th CPU of allowed (wrapping); its number, or -1. */
static inline int race_pin(int party, const cpu_set_t *allowed)
{
	int n = CPU_COUNT(allowed), want, cpu;
	cpu_set_t one;

	if (n <= 0)
		return -1;
	want = party % n;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, allowed) && !want--)
			break;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one) ? -1 : cpu;
}

/* Before the round's blocks start. */
static inline void race_arm(struct race_sync *rs)
{
	atomic_store(&rs->go, 0);
	atomic_store(&rs->arrived, 0);
	for (int k = 0; k < RACE_PARTIES; k++) {
		rs->released_ns[k] = 0;
		rs->cpu[k] = -1;
	}
}

static inline void race_left(struct race_sync *rs, int party)
{
	rs->released_ns[party] = race_now_ns();
	rs->cpu[party] = sched_getcpu();
}

/* A block: arrive, and spin until the main line lets every party go. */
static inline void race_arrive(struct race_sync *rs, int party)
{
	/*
	 * A fork child maps its pages lazily: a first vDSO call after the
	 * release would fault (tens of us). Make it now.
	 */
	race_left(rs, party);
	atomic_fetch_add(&rs->arrived, 1);
	/* A party that shares its CPU with another must let it run. */
	for (unsigned int n = 1; !atomic_load(&rs->go); n++)
		if (!(n % 4096))
			sched_yield();
	race_left(rs, party);
}

/* The main line: wait for the blocks it started, then release them. */
static inline void race_release(struct race_sync *rs, int blocks)
{
	int64_t give_up = race_now_ns() + RACE_ARRIVE_NS;

	for (unsigned int n = 1; atomic_load(&rs->arrived) < blocks; n++)
		if (!(n % 4096) && (sched_yield(), race_now_ns() > give_up))
			break;
	race_left(rs, 0);
	atomic_store(&rs->go, 1);
}

static inline void race_spin(int64_t ns)
{
	int64_t end = race_now_ns() + ns;

	while (ns > 0 && race_now_ns() < end)
		;
}

#endif
