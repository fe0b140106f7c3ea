// SPDX-License-Identifier: GPL-2.0
/*
 * Racing groups: the group after a race statement runs in rounds, its
 * parties pinned to CPUs of their own and released together by a barrier
 * (runtime/racesync.h), the delayed party spinning first, the delay swept
 * over the rounds. Each round starts with a comment line on the execution
 * log, so that a finding's program says which delay it came in (the log
 * reaches the host before a panic), and ends with a record of how the
 * parties met.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/mman.h>

#include "exec/interp.h"

static void round_start(struct mmf_interp *in)
{
	struct mmf_race_state *rc = &in->race;
	const struct mmf_stmt *s = &in->p->stmts[rc->race];
	char line[128];
	int n;

	rc->delay_ns = race_sweep(rc->round, s->args[0], s->args[2], s->args[3]);
	rc->opened = rc->started = 0;
	race_arm(rc->sync);
	if (in->o->exec_log_fd < 0)
		return;
	n = snprintf(line, sizeof(line), "# " MMF_RACE_ROUND_MARK " %d of %d, delay %" PRId64
		     " ns\n", rc->round + 1, (int)s->args[0], rc->delay_ns);
	mmf_write_all(in->o->exec_log_fd, line, n);
}

void mmf_race_begin(struct mmf_interp *in, int ri)
{
	struct mmf_race_state *rc = &in->race;

	if (!mmf_prog_race_group(in->p, ri, &rc->g))
		return;
	if (!rc->sync) {
		void *m = mmap(NULL, sizeof(*rc->sync), PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			return;
		rc->sync = m;
	}
	if (sched_getaffinity(0, sizeof(rc->cpus), &rc->cpus))
		return;
	rc->race = ri;
	rc->round = 0;
	rc->delayed = MIN((int)in->p->stmts[ri].args[1], rc->g.nr_blocks);
	round_start(in);
}

void mmf_race_meet(struct mmf_interp *in, int party)
{
	struct mmf_race_state *rc = &in->race;

	race_pin(party, &rc->cpus);
	if (party)
		race_arrive(rc->sync, party);
	else
		race_release(rc->sync, rc->started);
	if (party == rc->delayed)
		race_spin(rc->delay_ns);
}

bool mmf_race_round_end(struct mmf_interp *in)
{
	struct mmf_race_state *rc = &in->race;
	const struct race_sync *rs = rc->sync;
	int64_t lo = rs->released_ns[0], hi = lo;
	char buf[160];
	int n;

	n = snprintf(buf, sizeof(buf), "X %d %d %" PRId64, rc->race, rc->round, rc->delay_ns);
	for (int k = 1; k < RACE_PARTIES; k++) {
		if (!rs->released_ns[k])
			continue;	/* a block that did not start */
		lo = MIN(lo, rs->released_ns[k]);
		hi = MAX(hi, rs->released_ns[k]);
	}
	n += snprintf(buf + n, sizeof(buf) - n, " %" PRId64, hi - lo);
	for (int k = 0; k <= rc->opened; k++)
		n += snprintf(buf + n, sizeof(buf) - n, " %d", rs->cpu[k]);
	buf[n++] = '\n';
	mmf_write_all(in->outfd, buf, n);
	if (++rc->round < (int)in->p->stmts[rc->race].args[0]) {
		round_start(in);
		return true;
	}
	sched_setaffinity(0, sizeof(rc->cpus), &rc->cpus);
	rc->race = -1;
	return false;
}

void mmf_race_describe(const struct mmf_interp *in, struct strbuf *sb)
{
	const struct mmf_race_state *rc = &in->race;

	if (rc->race >= 0)
		mmf_sb_printf(sb, MMF_RACE_ROUND_MARK " %d of %d, delay %" PRId64 " ns\n",
			      rc->round + 1, (int)in->p->stmts[rc->race].args[0], rc->delay_ns);
}
