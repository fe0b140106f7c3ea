// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/fuzz.h"
#include "fuzz/stress.h"
#include "stressors/hog.h"
#include "sys/cgroup.h"
#include "sys/sysfs.h"
#include "util/util.h"

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	stop = 1;
}

/* A stressor's finding goes into the crash store like a program's. */
static void save_report(void *arg, const char *title, const char *body)
{
	struct mmf_exec_report r = { .title = (char *)title, .body = (char *)body };
	struct mmf_store_added res;
	struct mmf_prog none = { 0 };

	if (mmf_save_crash(arg, &r, &none, NULL, &res))
		printf("REPORT: %s (not saved: %s)\n", title, mmf_store_err());
	else
		printf("REPORT: %s (in %s/crashes/%s)\n", title, (const char *)arg, res.name);
	fflush(stdout);
}

void mmf_stress_target_of(struct mmf_env *env, const char *out, struct mmf_stress_target *t)
{
	*t = (struct mmf_stress_target){
		.j = env->j, .cg = env->cg, .cg_limit = env->cg_limit, .swaps = &env->set,
		.out = out, .report = save_report, .report_arg = (void *)out,
	};
}

int mmf_stress_standalone(const struct mmf_stress_cmd_opts *o)
{
	struct sigaction sa = { .sa_handler = on_stop };
	struct mmf_stress_target t;
	struct mmf_stress_run *run;
	struct mmf_env env;
	uint64_t t0;
	char err[512];
	pid_t hog = 0;
	int rc = 0;
	bool found = false;

	if (mmf_env_setup(&o->env, &env, err, sizeof(err))) {
		mmf_warnx_("stress: %s", err);
		return -1;
	}
	printf("stress: %d swap device(s):", env.set.nr);
	for (int i = 0; i < env.set.nr; i++)
		printf(" %s", env.set.path[i]);
	printf(", cgroup %s, output in %s\n", env.cg ? mmf_cg_path(env.cg) : "none", o->out);
	if (o->hog_bytes) {
		hog = mmf_hog_start(env.cg, o->hog_bytes);
		if (hog < 0)
			mmf_warnx_("stress: %s", mmf_sys_err());
	}
	mmf_stress_target_of(&env, o->out, &t);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (mmf_stress_start(&o->sel, &t, o->seed, &run, err, sizeof(err))) {
		mmf_warnx_("%s", err);
		rc = -1;
	} else {
		printf("stress: running %d stressor(s) for %lld s, seed %llu (runner %d)\n",
		       o->sel.nr, (long long)o->duration_ms / 1000, (unsigned long long)o->seed,
		       (int)mmf_stress_pid(run));
		fflush(stdout);
		for (t0 = mmf_now_ns(); !stop && (int64_t)((mmf_now_ns() - t0) / 1000000) < o->duration_ms;)
			usleep(50 * 1000);
		found = mmf_stress_reports(run) > 0;
		/* Stressors that stopped early did not do what was asked. */
		if (mmf_stress_stop(run))
			rc = -1;
	}
	mmf_hog_stop(hog);
	if (mmf_env_teardown(&env))
		rc = -1;
	return rc ? rc : found;
}
