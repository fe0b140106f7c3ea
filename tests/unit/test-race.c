// SPDX-License-Identifier: GPL-2.0
/*
 * Racing groups as the executor runs them (exec/race.c, runtime/racesync.h):
 * the barrier lets every party go within a bound, each party runs on a CPU
 * of its own, and the delays of the rounds are the sweep of the race
 * statement, in the round records and in the marks on the execution log,
 * from which a finding's delay is read back (mmf_prog_race_mark).
 *
 * How close the parties leave the barrier is a figure, printed, not a
 * bound: on this 2-CPU machine, idle, 0.1 to 0.2 us (median; threads) and
 * 0.5 us (fork children); with two CPU hogs beside them 16 and 45 us; with
 * a TCG guest and another test beside them, 2 ms (median), each CPU shared
 * three ways. The test holds what no load changes: every party of every
 * round left the barrier and its spread was measured.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "exec/exec.h"
#include "model/prog.h"
#include "tap.h"
#include "util/util.h"

#define ROUNDS		48

static void parse(const char *text, struct mmf_prog *p)
{
	char err[256];

	CHECK(!mmf_prog_parse(text, p, err, sizeof(err)), "%s", err);
}

/* Run text with its execution log in log; the result in r. */
static void run(const char *text, struct strbuf *log, struct mmf_exec_result *r)
{
	struct mmf_exec_opts eo = {
		.timeout_ms = 60000, .exec_log_fd = -1, .corrupt_after = -1, .hang_after = -1,
		.tmpdir = "/dev/shm",
	};
	struct mmf_prog p;
	char buf[4096];
	ssize_t n;

	parse(text, &p);
	eo.exec_log_fd = memfd_create("exec.log", MFD_CLOEXEC);
	CHECK(eo.exec_log_fd >= 0, "memfd_create");
	CHECK(!mmf_exec_prog(&p, &eo, r), "mmf_exec_prog");
	CHECK(r->status == MMF_RUN_OK, "status %s", mmf_run_status_name(r->status));
	lseek(eo.exec_log_fd, 0, SEEK_SET);
	while ((n = read(eo.exec_log_fd, buf, sizeof(buf))) > 0)
		mmf_sb_add(log, buf, n);
	close(eo.exec_log_fd);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static const char *const groups[] = {
	"m0 = mmap(0, 16, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, MAP_POPULATE)\n"
	"race(48, main, 0, 0)\n"
	"thread {\n"
	"\tread(m0, 0, 1)\n"
	"}\n"
	"write(m0, 1, 1, 0x22)\n"
	"join\n",
	"m0 = mmap(0, 16, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, MAP_POPULATE)\n"
	"race(48, main, 0, 0)\n"
	"c0 = fork {\n"
	"\twrite(m0, 0, 1, 0x11)\n"
	"}\n"
	"write(m0, 1, 1, 0x22)\n"
	"join\n",
};

/* Every party of every round out of the barrier, the median spread within bound. */
static void test_barrier_bound(void)
{
	for (size_t g = 0; g < ARRAY_SIZE(groups); g++) {
		struct mmf_exec_result r;
		int64_t spread[ROUNDS];
		struct strbuf log;

		mmf_sb_init(&log);
		run(groups[g], &log, &r);
		CHECK(r.nr_rounds == ROUNDS, "%d rounds, want %d", r.nr_rounds, ROUNDS);
		for (int k = 0; k < ROUNDS; k++) {
			CHECK(r.rounds[k].parties == 2, "round %d: %d parties", k,
			      r.rounds[k].parties);
			spread[k] = r.rounds[k].spread_ns;
		}
		qsort(spread, ROUNDS, sizeof(spread[0]), cmp_i64);
		printf("# %s: parties out of the barrier within %lld ns (median), %lld ns (max)\n",
		       g ? "fork" : "thread", (long long)spread[ROUNDS / 2],
		       (long long)spread[ROUNDS - 1]);
		CHECK(spread[0] >= 0 && spread[ROUNDS - 1] > 0, "spreads %lld to %lld ns",
		      (long long)spread[0], (long long)spread[ROUNDS - 1]);
		mmf_exec_result_free(&r);
		mmf_sb_free(&log);
	}
}

/* Each party on a CPU of its own, and the main line's CPUs given back. */
static void test_pinning(void)
{
	cpu_set_t before, after;

	CHECK(!sched_getaffinity(0, sizeof(before), &before), "sched_getaffinity");
	CHECK(CPU_COUNT(&before) >= 2, "racing needs two CPUs, this process has %d",
	      CPU_COUNT(&before));
	for (size_t g = 0; g < ARRAY_SIZE(groups); g++) {
		struct mmf_exec_result r;
		struct strbuf log;

		mmf_sb_init(&log);
		run(groups[g], &log, &r);
		for (int k = 0; k < r.nr_rounds; k++) {
			const struct mmf_race_round *rr = &r.rounds[k];

			CHECK(rr->cpu[0] >= 0 && rr->cpu[1] >= 0, "round %d: CPUs %d, %d", k,
			      rr->cpu[0], rr->cpu[1]);
			CHECK(rr->cpu[0] != rr->cpu[1], "round %d: both parties on CPU %d", k,
			      rr->cpu[0]);
			CHECK(CPU_ISSET(rr->cpu[0], &before) && CPU_ISSET(rr->cpu[1], &before),
			      "round %d: a CPU outside the allowed ones", k);
		}
		mmf_exec_result_free(&r);
		mmf_sb_free(&log);
	}
	CHECK(!sched_getaffinity(0, sizeof(after), &after) && CPU_EQUAL(&before, &after),
	      "the test's own CPUs changed");
}

/* The sweep, in the records and on the log; the log's last mark read back. */
static void test_sweep_recorded(void)
{
	static const char text[] =
		"m0 = mmap(0, 16, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, MAP_POPULATE)\n"
		"race(5, block1, 1000, 9000)\n"
		"thread {\n"
		"\tread(m0, 0, 1)\n"
		"}\n"
		"write(m0, 1, 1, 0x22)\n";
	static const int64_t want[] = { 1000, 3000, 5000, 7000, 9000 };
	struct mmf_exec_result r;
	struct strbuf log;
	struct mmf_prog p;
	char line[96];

	mmf_sb_init(&log);
	/* No join: the end of the program closes each round. */
	run(text, &log, &r);
	CHECK(r.nr_rounds == 5, "%d rounds", r.nr_rounds);
	for (int k = 0; k < 5; k++) {
		CHECK(r.rounds[k].round == k && r.rounds[k].race == 1, "round %d: %d of race %d",
		      k, r.rounds[k].round, r.rounds[k].race);
		CHECK(r.rounds[k].delay_ns == want[k], "round %d: delay %lld, want %lld", k,
		      (long long)r.rounds[k].delay_ns, (long long)want[k]);
		snprintf(line, sizeof(line), "# %s %d of 5, delay %lld ns\n", MMF_RACE_ROUND_MARK,
			 k + 1, (long long)want[k]);
		CHECK(strstr(log.buf, line), "no '%.*s' on the log", (int)strlen(line) - 1, line);
	}
	parse(log.buf, &p);
	CHECK(mmf_prog_race_mark(&p) == 9000, "mark %lld", (long long)mmf_prog_race_mark(&p));
	mmf_exec_result_free(&r);
	mmf_sb_free(&log);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_barrier_bound),
	TAP_TEST(test_pinning),
	TAP_TEST(test_sweep_recorded),
};

int main(void)
{
	CHECK(!mmf_exec_init(), "mmf_exec_init");
	return tap_run(tests);
}
