// SPDX-License-Identifier: GPL-2.0
/*
 * The runner: one child process beside the fuzzer, a thread per stressor
 * stepping at its period and one for the sampler. A child, so that a
 * stressor the OOM killer picks, or one that crashes, never takes the
 * fuzzer down; it dies with its parent (PR_SET_PDEATHSIG), whose journal
 * holds every change, so nothing outlives a killed run.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stressors/canary.h"
#include "stressors/sampler.h"
#include "stressors/stressor.h"
#include "sys/sysfs.h"

#define SAMPLE_MS	1000
#define STOP_WAIT_MS	30000	/* a swapoff paging a device back in may take this */
/*
 * Stressors pause while the fuzzer has finished no program for this long:
 * a hung fuzzer (or kernel task) must leave the console silent, for the
 * campaign's hang detection and for a report's end to be seen, and the
 * swap cycler's swapon lines would go on.
 */
#define IDLE_MS		5000

/* Shared with the runner (MAP_SHARED): the heartbeat, the end's report. */
struct shared {
	atomic_ullong beat_ns;	/* the fuzzer's last program; 0: no fuzzer */
	atomic_uint reports;	/* findings of the stressors */
	struct counts {
		atomic_ullong steps, expected, failed;
		atomic_ullong acted_ns;	/* the start of its last step, 0: none yet */
		char last[200];
	} n[MMF_STRESS_MAX];
};

struct mmf_stress_run {
	int nr;
	struct mmf_stress_ctx ctx[MMF_STRESS_MAX];
	struct shared *sh;
	const struct mmf_stress_target *t;
	char *samples;
	pid_t pid;
};

static atomic_bool stopping;
/* The stressor a thread of the runner steps, named when the runner crashes. */
static __thread const char *stepping;

bool mmf_stress_stopping(void)
{
	return atomic_load(&stopping);
}

/* Sleep ms, waking early when the run stops. */
static void nap(int ms)
{
	while (ms > 0 && !atomic_load(&stopping)) {
		struct timespec ts = { 0, MIN(ms, 100) * 1000000L };

		nanosleep(&ts, NULL);
		ms -= 100;
	}
}

struct worker {
	struct mmf_stress_ctx *c;
	struct counts *n;
	atomic_ullong *beat_ns;
	bool zap;	/* test hook MMFUZZ_CANARY_ZAP: lose a canary page once */
};

/* Reports come from several threads; the store's locks are per process. */
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static struct shared *runner_sh;	/* the runner's, to count reports in */

void mmf_stress_report(struct mmf_stress_ctx *c, const char *title, const char *body)
{
	pthread_mutex_lock(&report_lock);
	c->t->report(c->t->report_arg, title, body);
	if (runner_sh)
		atomic_fetch_add(&runner_sh->reports, 1);
	pthread_mutex_unlock(&report_lock);
}

static bool fuzzer_idle(atomic_ullong *beat_ns)
{
	uint64_t beat = atomic_load(beat_ns);

	return beat && mmf_now_ns() - beat > IDLE_MS * 1000000ULL;
}

static void *stress_thread(void *arg)
{
	struct worker *w = arg;
	struct mmf_canary canary;
	struct strbuf body;
	char title[128];

	stepping = w->c->info->name;
	/* Kernel reports name the task: "mmf-ksm", not the runner's name. */
	snprintf(title, sizeof(title), "mmf-%s", w->c->info->name);
	title[15] = '\0';
	prctl(PR_SET_NAME, title);
	mmf_canary_init(&canary, mmf_rand64(&w->c->rnd));
	mmf_sb_init(&body);
	while (!atomic_load(&stopping)) {
		int r;

		if (fuzzer_idle(w->beat_ns)) {
			nap(w->c->info->period_ms);
			continue;
		}
		atomic_store(&w->n->acted_ns, mmf_now_ns());
		r = w->c->info->step(w->c);
		if (mmf_canary_check(&canary, title, sizeof(title), &body))
			mmf_stress_report(w->c, title, body.buf);
		body.len = 0;
		if (w->zap && canary.checks == 1)
			mmf_canary_zap(&canary);

		atomic_fetch_add(&w->n->steps, 1);
		if (r < 0 && mmf_stress_expected(r)) {
			atomic_fetch_add(&w->n->expected, 1);
		} else if (r < 0) {
			atomic_fetch_add(&w->n->failed, 1);
			snprintf(w->n->last, sizeof(w->n->last), "%s", mmf_sys_err());
		}
		nap(w->c->info->period_ms);
	}
	mmf_sb_free(&body);
	mmf_canary_free(&canary);
	return NULL;
}

static void *sample_thread(void *arg)
{
	struct mmf_stress_run *r = arg;
	uint64_t t0 = mmf_now_ns();
	FILE *f = fopen(r->samples, "ae");
	struct strbuf sb;

	if (!f)
		return NULL;
	mmf_sb_init(&sb);
	do {
		sb.len = 0;
		mmf_sample_take(&sb, (mmf_now_ns() - t0) / 1e9, r->t->cg);
		fprintf(f, "%s\n", sb.buf);
		fflush(f);
		nap(SAMPLE_MS);
	} while (!atomic_load(&stopping));
	/* The last sample at the very end, so the summary covers the whole run. */
	sb.len = 0;
	mmf_sample_take(&sb, (mmf_now_ns() - t0) / 1e9, r->t->cg);
	fprintf(f, "%s\n", sb.buf);
	fclose(f);
	mmf_sb_free(&sb);
	return NULL;
}

/*
 * A crash of the runner names the stressor and the address before the
 * default action: mmfuzz's own bug, or the kernel corrupting its memory,
 * and which is for the one who reads it to tell. Only write(2) here.
 */
static void crashed(int sig, siginfo_t *si, void *uc)
{
	char buf[160] = "stress: runner: signal ", *p = buf + strlen(buf);
	uintptr_t a = (uintptr_t)si->si_addr;
	const char *name = stepping ? stepping : "(none: the sampler or the main thread)";

	*p++ = '0' + sig / 10;
	*p++ = '0' + sig % 10;
	p = stpcpy(p, " at 0x");
	for (int bit = (int)sizeof(a) * 8 - 4; bit >= 0; bit -= 4)
		*p++ = "0123456789abcdef"[(a >> bit) & 0xf];
	p = stpcpy(p, " while stepping ");
	p = stpncpy(p, name, buf + sizeof(buf) - p - 2);
	*p++ = '\n';
	if (write(STDERR_FILENO, buf, p - buf) < 0)
		_exit(128 + sig);
	raise(sig);	/* the default action now, a fault or a kill(2) alike */
}

static void __attribute__((noreturn)) runner(struct mmf_stress_run *r, sigset_t *set,
					     pid_t parent)
{
	pthread_t th[MMF_STRESS_MAX + 1];
	struct worker w[MMF_STRESS_MAX];
	int sig, nth = 0;

	struct sigaction sa = { .sa_sigaction = crashed,
				.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER };
	const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE };

	mmf_die_with_parent(parent, SIGKILL, 0);
	prctl(PR_SET_NAME, "mmfuzz-stress");
	for (size_t i = 0; i < ARRAY_SIZE(fatal); i++)
		sigaction(fatal[i], &sa, NULL);
	runner_sh = r->sh;
	/* The fuzzer's programs come first; the threads inherit this. */
	setpriority(PRIO_PROCESS, 0, 10);
	if (!pthread_create(&th[nth], NULL, sample_thread, r))
		nth++;
	for (int i = 0; i < r->nr; i++) {
		w[i] = (struct worker){ &r->ctx[i], &r->sh->n[i], &r->sh->beat_ns,
					.zap = !i && getenv("MMFUZZ_CANARY_ZAP") };
		if (!pthread_create(&th[nth], NULL, stress_thread, &w[i]))
			nth++;
	}
	sigwait(set, &sig);
	atomic_store(&stopping, true);
	for (int i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	_exit(0);
}

int mmf_stress_start(const struct mmf_stress_sel *sel, const struct mmf_stress_target *t,
		     uint64_t seed, struct mmf_stress_run **rp, char *err, size_t n)
{
	struct mmf_stress_run *r = mmf_xcalloc(1, sizeof(*r));
	sigset_t set, old;
	pid_t parent;

	r->t = t;
	r->samples = mmf_xasprintf("%s/samples.jsonl", t->out);
	for (int i = 0; i < sel->nr; i++) {
		struct mmf_stress_ctx *c = &r->ctx[r->nr];

		*c = (struct mmf_stress_ctx){ .info = sel->info[i], .t = t };
		memcpy(c->opt, sel->opt[i], sizeof(c->opt));
		mmf_rand_seed(&c->rnd, seed + i);
		if (c->info->setup && c->info->setup(c) < 0) {
			printf("stress: %s skipped: %s\n", c->info->name, mmf_sys_err());
			continue;
		}
		r->nr++;
	}
	r->sh = mmap(NULL, sizeof(*r->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		     -1, 0);
	if (r->sh == MAP_FAILED) {
		snprintf(err, n, "stress: mmap: %s", strerror(errno));
		r->sh = NULL;
		goto fail;
	}
	fflush(NULL);
	/* Blocked before the fork: a stop that comes at once is not lost. */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	parent = getpid();
	r->pid = fork();
	if (r->pid == 0)
		runner(r, &set, parent);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (r->pid < 0) {
		snprintf(err, n, "stress: fork: %s", strerror(errno));
		goto fail;
	}
	*rp = r;
	return 0;
fail:
	r->pid = -1;
	mmf_stress_stop(r);
	return -1;
}

void mmf_stress_beat(struct mmf_stress_run *r)
{
	if (r && r->sh)
		atomic_store(&r->sh->beat_ns, mmf_now_ns());
}

pid_t mmf_stress_pid(const struct mmf_stress_run *r)
{
	return r->pid;
}

unsigned int mmf_stress_reports(const struct mmf_stress_run *r)
{
	return r->sh ? atomic_load(&r->sh->reports) : 0;
}

/* 0, or -1 when the runner had died before it was asked to stop. */
static int wait_runner(pid_t pid)
{
	uint64_t t0 = mmf_now_ns();
	int st;

	/* Dead before we asked: a crash or the OOM killer, say so. */
	if (waitpid(pid, &st, WNOHANG) == pid) {
		if (WIFSIGNALED(st))
			mmf_warnx_("stress: the runner died early of signal %d (%s): stressors stopped",
			       WTERMSIG(st), strsignal(WTERMSIG(st)));
		else
			mmf_warnx_("stress: the runner exited early (status %d): stressors stopped",
			       WEXITSTATUS(st));
		return -1;
	}
	kill(pid, SIGTERM);
	while (waitpid(pid, NULL, WNOHANG) == 0) {
		if (mmf_now_ns() - t0 > STOP_WAIT_MS * 1000000ULL) {
			mmf_warnx_("stress: the runner did not stop in %d s: killed",
			       STOP_WAIT_MS / 1000);
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			return 0;
		}
		usleep(20 * 1000);
	}
	return 0;
}

static void summarize(const char *path)
{
	struct mmf_summary s;
	struct strbuf sb;
	char *text = mmf_read_text(path), *save, *line;

	mmf_summary_init(&s);
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		mmf_summary_add(&s, line);
	mmf_sb_init(&sb);
	mmf_summary_format(&s, &sb);
	printf("%s", sb.buf ? sb.buf : "");
	printf("summary: samples in %s\n", path);
	mmf_sb_free(&sb);
	mmf_summary_free(&s);
	free(text);
}

int mmf_stress_stop(struct mmf_stress_run *r)
{
	int ret = r->pid > 0 ? wait_runner(r->pid) : 0;

	for (int i = 0; i < r->nr; i++) {
		struct mmf_stress_ctx *c = &r->ctx[i];

		if (c->info->teardown)
			c->info->teardown(c);
		if (!r->sh)
			continue;
		printf("stress: %-8s %llu steps, %llu expected errors, %llu failed%s%s\n",
		       c->info->name, (unsigned long long)r->sh->n[i].steps,
		       (unsigned long long)r->sh->n[i].expected,
		       (unsigned long long)r->sh->n[i].failed,
		       r->sh->n[i].failed ? ", last: " : "", r->sh->n[i].last);
	}
	if (r->pid > 0)
		summarize(r->samples);
	fflush(stdout);
	if (r->sh)
		munmap(r->sh, sizeof(*r->sh));
	free(r->samples);
	free(r);
	return ret;
}

void mmf_stress_last(const struct mmf_stress_run *r, struct strbuf *sb)
{
	uint64_t now = mmf_now_ns(), at[MMF_STRESS_MAX];
	int order[MMF_STRESS_MAX], n = 0;

	if (!r || !r->sh)
		return;
	/* The most recent first: insertion into order[]. */
	for (int i = 0; i < r->nr; i++) {
		int k = n++;

		at[i] = atomic_load(&r->sh->n[i].acted_ns);
		if (!at[i]) {
			n--;
			continue;
		}
		while (k > 0 && at[order[k - 1]] < at[i]) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = i;
	}
	for (int k = 0; k < n; k++) {
		int i = order[k];

		mmf_sb_printf(sb, "%s%s %.3f s", k ? ", " : "stressors, the last to act first: ",
			      r->ctx[i].info->name, (now - MIN(now, at[i])) / 1e9);
	}
	if (n)
		mmf_sb_puts(sb, " before the fuzzer had the report\n");
}
