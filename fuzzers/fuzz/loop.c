// SPDX-License-Identifier: GPL-2.0
/*
 * Native fuzz loop. Without kernel coverage, a program is kept in the pool
 * when it shows new behaviour: a (call, argument class, result) it is the
 * first to produce, or pages it got swapped out. Mutation works from the
 * pool, generation brings fresh programs.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/coverlog.h"
#include "fuzz/fuzz.h"
#include "fuzz/stress.h"
#include "oracle/kmsg.h"
#include "sys/sysfs.h"
#include "runtime/racesync.h"
#include "util/rand.h"
#include "util/util.h"

#define POOL_MAX	256
#define SIGNAL_BITS	(1 << 16)

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	stop = 1;
}

struct vmstat {
	uint64_t pswpin, pswpout, pgfault;
};

static void read_vmstat(struct vmstat *v)
{
	char *s = mmf_read_file("/proc/vmstat", NULL);
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "\npswpin ", offsetof(struct vmstat, pswpin) },
		{ "\npswpout ", offsetof(struct vmstat, pswpout) },
		{ "\npgfault ", offsetof(struct vmstat, pgfault) },
	};

	memset(v, 0, sizeof(*v));
	for (size_t i = 0; s && i < ARRAY_SIZE(keys); i++) {
		char *p = strstr(s, keys[i].key);

		if (p)
			*(uint64_t *)((char *)v + keys[i].off) =
				strtoull(p + strlen(keys[i].key), NULL, 10);
	}
	free(s);
}

/* Behaviour of one call, hashed: the call, its last argument, its result. */
static uint32_t call_signal(const struct mmf_prog *p, const struct mmf_call_result *c)
{
	const struct mmf_stmt *s = &p->stmts[c->si];
	int na = mmf_calls[s->id].nr_args;
	uint64_t h = s->id * 0x9e3779b1u;

	h ^= (na ? s->args[na - 1] : 0) * 0x85ebca6bu;
	h ^= (c->res < 0 ? c->res : c->res > 0) * 0xc2b2ae35u;
	h ^= (c->swapped > 0) * 0x27d4eb2fu;
	return (h ^ (h >> 16)) % SIGNAL_BITS;
}

static int new_signal(uint8_t *seen, const struct mmf_prog *p, const struct mmf_exec_result *r)
{
	int n = 0;

	for (int i = 0; i < r->nr_results; i++) {
		uint32_t b = call_signal(p, &r->results[i]);

		if (!(seen[b / 8] & (1u << (b % 8)))) {
			seen[b / 8] |= 1u << (b % 8);
			n++;
		}
	}
	return n;
}

static void progress(const struct mmf_fuzz_stats *st, uint64_t t0, const struct vmstat *v0,
		     int pool)
{
	double secs = (mmf_now_ns() - t0) / 1e9;
	struct vmstat v;

	read_vmstat(&v);
	printf("[%6.0fs] progs %llu (%.1f/s) calls %llu (%.0f/s) swapped-seen %llu"
	       " pswpin +%llu pswpout +%llu faults +%llu reports %llu timeouts %llu pool %d\n",
	       secs, (unsigned long long)st->progs, st->progs / secs,
	       (unsigned long long)st->calls, st->calls / secs,
	       (unsigned long long)st->swapped,
	       (unsigned long long)(v.pswpin - v0->pswpin),
	       (unsigned long long)(v.pswpout - v0->pswpout),
	       (unsigned long long)(v.pgfault - v0->pgfault),
	       (unsigned long long)st->reports, (unsigned long long)st->timeouts, pool);
	fflush(stdout);
}

static void handle_reports(const struct mmf_fuzz_opts *o, const struct mmf_prog *p,
			   const struct mmf_exec_result *r, const struct mmf_stress_run *run,
			   struct mmf_fuzz_stats *st)
{
	/* one program's reports are one bug: the first saved one's (store.h) */
	char first[sizeof(((struct mmf_store_added *)0)->title)] = "";

	for (int i = 0; i < r->nr_reports; i++) {
		struct mmf_exec_report rep = r->reports[i];
		struct mmf_store_added res;
		struct strbuf body;
		int saved;

		/* Which stressor acted last: the other party of a race with the fuzzer. */
		mmf_sb_init(&body);
		mmf_sb_puts(&body, rep.body);
		if (body.len && body.buf[body.len - 1] != '\n')
			mmf_sb_puts(&body, "\n");
		mmf_stress_last(run, &body);
		rep.body = body.buf;
		/* Saved (and in a guest, on the host) before it is printed. */
		saved = mmf_save_crash(o->out, &rep, p, first[0] ? first : NULL, &res);
		st->reports++;
		if (o->print_reports)
			printf("%s\n", rep.body);
		mmf_sb_free(&body);
		if (saved) {
			printf("REPORT: %s\n", r->reports[i].title);
			mmf_warnx_("cannot save the report: %s", mmf_store_err());
			mmf_tally_add(&st->tally, r->reports[i].title, NULL);
			continue;
		}
		mmf_tally_add(&st->tally, res.title, &res);
		if (!first[0])
			snprintf(first, sizeof(first), "%s", res.title);
		if (res.index >= 0) {
			printf("REPORT: %s (saved as %s/crashes/%s/report.%d)\n",
			       r->reports[i].title, o->out, res.name, res.index);
		} else {
			printf("REPORT: %s (seen %ld times, in %s/crashes/%s)\n",
			       r->reports[i].title, res.count, o->out, res.name);
		}
		fflush(stdout);
	}
}

/*
 * With --corrupt-tag T, one program in 8 stores tag T, so that the hook
 * fires within a short run and what it makes reproduces (the reproducing
 * guests corrupt after the same writes). Each such store is read back at
 * once: a page the hook changed is then seen whatever the program does
 * to it later (overwrites it, unmaps it), not by chance.
 */
static void tag_hook(const struct mmf_fuzz_opts *o, struct mmf_rand *rnd, struct mmf_prog *p)
{
	if (!o->corrupt_tag || !mmf_rand_oneof(rnd, 8))
		return;
	for (int i = 0; i < p->nr; i++) {
		struct mmf_stmt *s = &p->stmts[i];

		if (s->id < 0 || !(mmf_calls[s->id].flags & MMF_CALL_STORES))
			continue;
		s->args[3] = o->corrupt_tag;
		if (p->nr == MMF_MAX_STMTS || !(mmf_calls[s->id].flags & MMF_CALL_RANGE))
			continue;
		memmove(s + 2, s + 1, (p->nr - i - 1) * sizeof(*s));
		s[1] = (struct mmf_stmt){ .id = MMF_READ, .args = { s->args[0], s->args[1], s->args[2] } };
		p->nr++;
		i++;
	}
}

static const char kcsan_race[] = "/sys/kernel/debug/mmfuzz-race";

/* One writer of the KCSAN kernel's racy counter, on a CPU of its own. */
static void *race_writer(void *arg)
{
	cpu_set_t cpus;

	if (!sched_getaffinity(0, sizeof(cpus), &cpus))
		race_pin((int)(intptr_t)arg, &cpus);
	if (mmf_sysfs_write(kcsan_race, "4000000") < 0)
		mmf_warnx_("test hook: %s: %s", kcsan_race, mmf_sys_err());
	return NULL;
}

/*
 * The crash path's self-test: a real kernel report from LKDTM while
 * programs run, a known data race on a KCSAN kernel, or a machine that
 * stops printing.
 */
static void test_hooks(const struct mmf_fuzz_opts *o, const struct mmf_fuzz_stats *st)
{
	static const char lkdtm[] = "/sys/kernel/debug/provoke-crash/DIRECT";

	if (o->kcsan_race_after && st->progs == (uint64_t)o->kcsan_race_after) {
		pthread_t th[2];
		int n = 0;

		printf("mmfuzz: test hook: two writers of %s\n", kcsan_race);
		fflush(stdout);
		for (intptr_t k = 0; k < 2; k++)
			n += !pthread_create(&th[n], NULL, race_writer, (void *)k);
		while (n--)
			pthread_join(th[n], NULL);
	}
	if (o->lkdtm && st->progs == (uint64_t)o->lkdtm_after) {
		printf("mmfuzz: test hook: provoking LKDTM %s\n", o->lkdtm);
		fflush(stdout);
		/*
		 * The hung task detector's default would outlast any test;
		 * checked every second, the task is reported about 10 s after
		 * it blocks instead of up to twice the timeout.
		 */
		if (!strcmp(o->lkdtm, "HUNG_TASK")) {
			mmf_sysfs_write("/proc/sys/kernel/hung_task_check_interval_secs", "1");
			mmf_sysfs_write("/proc/sys/kernel/hung_task_timeout_secs", "10");
		}
		if (mmf_sysfs_write(lkdtm, o->lkdtm) < 0)
			mmf_warnx_("test hook: %s: %s", lkdtm, mmf_sys_err());
	}
	if (o->kmsg_after && st->progs == (uint64_t)o->kmsg_after) {
		/* As mm/debug check_mm() prints it, at the kernel's warning level. */
		static const char rss[] = "<1>BUG: Bad rss-counter state mm:00000000a1b2c3d4"
					  " type:MM_SWAPENTS val:-1\n";

		printf("mmfuzz: test hook: a report into /dev/kmsg\n");
		fflush(stdout);
		if (mmf_sysfs_write("/dev/kmsg", rss) < 0)
			mmf_warnx_("test hook: /dev/kmsg: %s", mmf_sys_err());
	}
	if (o->stall_after && st->progs == (uint64_t)o->stall_after) {
		printf("mmfuzz: test hook: going silent\n");
		fflush(stdout);
		for (;;)
			pause();
	}
}

int mmf_fuzz_run(const struct mmf_fuzz_opts *o, struct mmf_env *env,
		 struct mmf_fuzz_stats *st)
{
	struct sigaction sa = { .sa_handler = on_stop };
	struct mmf_exec_opts eo = { .timeout_ms = o->timeout_ms, .slowdown = o->slowdown,
				    .corrupt_after = o->corrupt_after,
				    .corrupt_tag = o->corrupt_tag, .hang_after = -1,
				    .no_race = o->no_race };
	struct mmf_prog *pool = mmf_xcalloc(POOL_MAX, sizeof(*pool));
	uint8_t *seen = mmf_xcalloc(SIGNAL_BITS / 8, 1);
	struct mmf_stress_target target;
	struct mmf_stress_run *run = NULL;
	struct mmf_cover_log *clog = NULL;
	struct mmf_prog prog;
	uint64_t t0 = mmf_now_ns(), last = t0;
	char err[512];
	struct mmf_rand rnd;
	struct vmstat v0;
	char *logpath;
	int npool = 0, next_seed = o->seeds_from >= 0 ? o->seeds_from : o->nr_seeds;

	memset(st, 0, sizeof(*st));
	mmf_rand_seed(&rnd, o->seed);
	errno = o->findings ? -mmf_findings_open(o->findings) : 0;
	if (errno)
		mmf_warnx_("findings channel %s: %s: findings stay in this guest%s", o->findings,
			   strerror(errno), errno == EPERM ? " (kmsg needs printk.devkmsg=on)" : "");
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	logpath = o->exec_log ? mmf_xstrdup(o->exec_log) : mmf_xasprintf("%s/exec.log", o->out);
	eo.exec_log_fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	free(logpath);
	if (eo.exec_log_fd < 0)
		return -1;
	mmf_env_exec_opts(env, &eo);
	eo.kmsg = mmf_kmsg_open();
	if (o->cover_log)
		clog = mmf_cover_log_open(o->cover_log);
	if (o->cover_log && !clog)
		mmf_warnx_("coverage log %s: %s: no coverage recorded", o->cover_log,
			   strerror(errno));
	eo.cover = mmf_cover_log_map(clog);
	if (!eo.kmsg)
		mmf_warnx_("cannot read /dev/kmsg (%s): kernel reports will be missed",
		       strerror(errno));
	mmf_stress_target_of(env, o->out, &target);
	if (mmf_stress_start(&o->stress, &target, o->seed, &run, err, sizeof(err))) {
		mmf_warnx_("%s: fuzzing without stressors", err);
		run = NULL;
	}
	read_vmstat(&v0);
	for (; npool < o->nr_seeds && npool < POOL_MAX; npool++)
		pool[npool] = o->seeds[npool];
	while (!stop && (int64_t)((mmf_now_ns() - t0) / 1000000) < o->duration_ms) {
		struct mmf_exec_result r;

		test_hooks(o, st);
		if (next_seed < o->nr_seeds) {
			prog = o->seeds[next_seed++];
		} else if (!npool || mmf_rand_oneof(&rnd, MMF_GENERATE_ONE_IN)) {
			mmf_prog_generate(&rnd, 4 + mmf_rand_below(&rnd, o->max_calls), &prog);
		} else {
			prog = pool[mmf_rand_below(&rnd, npool)];
			mmf_prog_mutate(&rnd, &prog, &pool[mmf_rand_below(&rnd, npool)]);
		}
		tag_hook(o, &rnd, &prog);
		if (mmf_exec_prog(&prog, &eo, &r)) {
			mmf_warnx_("cannot run a program: %s", strerror(errno));
			break;
		}
		st->progs++;
		st->calls += r.nr_results;
		st->swapped += r.swapped;
		st->timeouts += r.status == MMF_RUN_TIMEOUT;
		st->killed += r.status == MMF_RUN_KILLED;
		st->crashed += r.status == MMF_RUN_CRASHED;
		mmf_callstats_add(&st->percall, &prog, &r);
		handle_reports(o, &prog, &r, run, st);
		mmf_cover_log_take(clog);
		if (new_signal(seen, &prog, &r)) {
			if (npool < POOL_MAX)
				pool[npool++] = prog;
			else
				pool[mmf_rand_below(&rnd, POOL_MAX)] = prog;
		}
		mmf_exec_result_free(&r);
		mmf_env_restore_swaps(env);
		mmf_stress_beat(run);
		if (mmf_now_ns() - last >= (uint64_t)o->progress_ms * 1000000) {
			progress(st, t0, &v0, npool);
			last = mmf_now_ns();
		}
	}
	progress(st, t0, &v0, npool);
	st->percall.run_ns = mmf_now_ns() - t0;
	if (run)
		mmf_stress_stop(run);
	mmf_kmsg_close(eo.kmsg);
	mmf_findings_close();
	mmf_cover_log_close(clog);
	close(eo.exec_log_fd);
	free(pool);
	free(seen);
	return 0;
}
