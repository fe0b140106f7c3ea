// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "campaign/afl.h"
#include "campaign/seeds.h"
#include "model/prog.h"
#include "store/store.h"
#include "cover/cover.h"
#include "util/rand.h"
#include "util/util.h"

/* afl-fuzz's stop: its fork server's last request, then the guest's teardown. */
#define STOP_GRACE_MS	(2 * MMF_VM_TEARDOWN_MS)
/* The self-test's crash comes after the seeds' dry run, while fuzzing. */
#define SELFTEST_EXEC	30

bool mmf_afl_available(void)
{
	return !system("command -v afl-fuzz >/dev/null 2>&1");
}

static char *exe_dir(void)
{
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (len <= 0)
		return mmf_xstrdup(".");
	exe[len] = '\0';
	return mmf_xstrdup(dirname(exe));
}

/* The project's corpus/ beside the build directory, if it is there. */
static const char *default_corpus(void)
{
	static char path[PATH_MAX + 16];
	char *dir = exe_dir();

	snprintf(path, sizeof(path), "%s/../corpus", dir);
	free(dir);
	return access(path, R_OK) ? NULL : path;
}

int mmf_campaign_engine(struct mmf_campaign_opts *o, const char *engine,
			const struct mmf_vm_images *im, const char **corpus, bool *afl,
			char *err, size_t n)
{
	if (engine && strcmp(engine, "afl") && strcmp(engine, "mmfuzz")) {
		snprintf(err, n, "unknown engine '%s' (afl, mmfuzz)", engine);
		return -1;
	}
	/* The mmfuzz engine unless asked: docs/campaigns.md says why (make bench-bugs). */
	*afl = engine && !strcmp(engine, "afl");
	if (*afl && !mmf_afl_available()) {
		snprintf(err, n, "the AFL++ engine needs afl-fuzz (scripts/setup.sh installs it)");
		return -1;
	}
	if (*afl && o->nr_lkdtm > 1) {
		snprintf(err, n, "the AFL++ engine's self-test takes one LKDTM type");
		return -1;
	}
	if (*afl && im->kcov != 1)
		fprintf(o->info, "mmfuzz: %s has no KCOV: AFL++'s feedback is the programs'"
			" effects (vmstat, page states, results)\n", im->kernel);
	if (o->focus && mmf_focus_spec_check(o->focus, err, n))
		return -1;
	o->focus_vmlinux = o->vmlinux ? o->vmlinux : im->vmlinux;
	if (!o->focus && o->focus_vmlinux)
		o->focus = "mm";
	/* All PCs, or no PCs at all: no ranges to send. */
	if (o->focus && (!strcmp(o->focus, "all") || im->kcov != 1))
		o->focus = NULL;
	if (o->focus && !o->focus_vmlinux) {
		snprintf(err, n, "--focus needs the kernel's vmlinux (--vmlinux)");
		return -1;
	}
	/* "none": the engine starts from generation alone. */
	if (corpus[0] && !strcmp(corpus[0], "none"))
		corpus[0] = NULL;
	else if (!corpus[0])
		corpus[0] = default_corpus();
	o->corpus = corpus;
	return 0;
}

struct instance {
	pid_t pid;
	char *dir;		/* OUT/vm-N */
	char name[16];		/* the instance's directory in OUT/afl */
	off_t log_from;		/* where this run's lines start in its afl-fuzz.log */
	bool seeds_run;		/* AFL++'s dry run over: every seed ran once */
};

static void set_env(const char *mutator, int64_t init_ms)
{
	char buf[32];

	setenv("AFL_NO_UI", "1", 1);
	setenv("AFL_SKIP_CPUFREQ", "1", 1);
	setenv("AFL_NO_AFFINITY", "1", 1);
	setenv("AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1", 1);
	/* The queue of an earlier run on this OUT is resumed, never lost. */
	setenv("AFL_AUTORESUME", "1", 1);
	/* A guest run is seconds: few calibration runs, no trimming. */
	setenv("AFL_FAST_CAL", "1", 1);
	setenv("AFL_DISABLE_TRIM", "1", 1);
	snprintf(buf, sizeof(buf), "%lld", (long long)init_ms);
	setenv("AFL_FORKSRV_INIT_TMOUT", buf, 1);
	if (mutator) {
		setenv("AFL_CUSTOM_MUTATOR_LIBRARY", mutator, 1);
		setenv("AFL_CUSTOM_MUTATOR_ONLY", "1", 1);
	}
}

static int start(const struct mmf_campaign_opts *o, struct instance *in, int k,
		 const char *seeds, const char *self, const char *focus, char *err, size_t n)
{
	char tmo[32], budget[32], mem[16], cpus[16], selftest[64], *afl_out, *store, *work, *log;
	char *index = mmf_xasprintf("%s/" MMF_SEEDS_INDEX, o->out);
	const char *argv[66];
	struct stat sb;
	int na = 0, fd;

	snprintf(in->name, sizeof(in->name), "vm%d", k);
	in->dir = mmf_xasprintf("%s/vm-%d", o->out, k);
	work = mmf_xasprintf("%s/work", in->dir);
	afl_out = mmf_xasprintf("%s/afl", o->out);
	store = mmf_campaign_store(o);
	log = mmf_xasprintf("%s/afl-fuzz.log", in->dir);
	if (mmf_mkdir_p(work, 0755)) {
		snprintf(err, n, "%s: %s", work, strerror(errno));
		return -1;
	}
	/*
	 * Boots and requests are bounded by the proxy; AFL++'s bound is a
	 * backstop, fixed: with '+' AFL++ 4.04c derives one from calibration,
	 * whose repeats the proxy answers at once, and got 1000 ms: every run
	 * of a second or more was a timeout to it, its coverage thrown away.
	 */
	snprintf(tmo, sizeof(tmo), "%lld", (long long)(600000LL * mmf_vm_slowdown(o->guest.accel)));
	snprintf(budget, sizeof(budget), "%lld", (long long)(o->duration_ms / 1000));
	snprintf(mem, sizeof(mem), "%d", o->guest.mem_mb);
	snprintf(cpus, sizeof(cpus), "%d", o->guest.cpus);
	argv[na++] = "afl-fuzz";
	argv[na++] = "-i";
	argv[na++] = seeds;
	argv[na++] = "-o";
	argv[na++] = afl_out;
	argv[na++] = k ? "-S" : "-M";
	argv[na++] = in->name;
	argv[na++] = "-t";
	argv[na++] = tmo;
	argv[na++] = "-m";
	argv[na++] = "none";
	argv[na++] = "-V";
	argv[na++] = budget;
	argv[na++] = "--";
	argv[na++] = self;
	argv[na++] = "afl-target";
	argv[na++] = "--arch";
	argv[na++] = o->guest.arch->name;
	argv[na++] = "--kernel";
	argv[na++] = o->guest.kernel;
	argv[na++] = "--initramfs";
	argv[na++] = o->guest.initrd;
	if (o->guest.mmfuzz) {
		argv[na++] = "--guest-mmfuzz";
		argv[na++] = o->guest.mmfuzz;
	}
	if (o->guest.append) {
		argv[na++] = "--append";
		argv[na++] = o->guest.append;
	}
	argv[na++] = "--mem";
	argv[na++] = mem;
	argv[na++] = "--cpus";
	argv[na++] = cpus;
	argv[na++] = "--work";
	argv[na++] = work;
	argv[na++] = "--store";
	argv[na++] = store;
	argv[na++] = "--seeds";
	argv[na++] = index;
	argv[na++] = "--cover";
	argv[na++] = in->dir;
	if (focus) {
		argv[na++] = "--focus-file";
		argv[na++] = focus;
	}
	if (o->weights) {
		argv[na++] = "--weights";
		argv[na++] = o->weights;
	}
	if (o->stress) {
		argv[na++] = "--stress";
		argv[na++] = o->stress;
	}
	/* The crash path's self-test: the first guest, once it fuzzes. */
	if (o->nr_lkdtm && !k) {
		snprintf(selftest, sizeof(selftest), "%d:%s", SELFTEST_EXEC, o->lkdtm[0]);
		argv[na++] = "--selftest-lkdtm";
		argv[na++] = selftest;
	}
	for (int i = 0; o->guest.guest_args && o->guest.guest_args[i] && na < 56; i += 1) {
		argv[na++] = "--guest-arg";
		argv[na++] = o->guest.guest_args[i];
	}
	argv[na++] = "@@";
	argv[na] = NULL;
	in->log_from = stat(log, &sb) ? 0 : sb.st_size;
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, n, "%s: %s", log, strerror(errno));
		return -1;
	}
	in->pid = fork();
	if (in->pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		dup2(null, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		execvp(argv[0], (char **)argv);
		dprintf(fd, "mmfuzz: cannot run afl-fuzz: %s\n", strerror(errno));
		_exit(127);
	}
	close(fd);
	free(work);
	free(afl_out);
	free(store);
	free(log);
	free(index);
	if (in->pid < 0) {
		snprintf(err, n, "fork: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* A number of the proxy's last sample (OUT/vm-N/cover.jsonl), 0 before one. */
static long long sample_of(const struct instance *in, const char *key)
{
	char *path = mmf_xasprintf("%s/cover.jsonl", in->dir);
	char *text = mmf_read_file(path, NULL), *last, *p;
	char *k = mmf_xasprintf("\"%s\":", key);
	long long v = 0;

	last = text ? strrchr(text, '{') : NULL;
	p = last ? strstr(last, k) : NULL;
	if (p)
		v = atoll(p + strlen(k));
	free(k);
	free(text);
	free(path);
	return v;
}

static int queue_size(const struct mmf_campaign_opts *o, const struct instance *in)
{
	char *path = mmf_xasprintf("%s/afl/%s/queue", o->out, in->name);
	DIR *d = opendir(path);
	struct dirent *e;
	int nr = 0;

	while (d && (e = readdir(d)))
		nr += !strncmp(e->d_name, "id:", 3);
	if (d)
		closedir(d);
	free(path);
	return nr;
}

/* The findings of the run: what the proxies added to the store. */
static void tally_store(const char *store, struct mmf_bug *before, int nb,
			struct mmf_tally *t)
{
	struct mmf_bug *after;
	int na = mmf_store_list(store, &after);

	for (int i = 0; i < na; i++) {
		int j = mmf_store_find(before, nb, after[i].name);
		long was = j >= 0 ? before[j].count : 0;
		struct mmf_store_added a = { .new_bug = j < 0 };

		for (long c = was; c < after[i].count; c++)
			mmf_tally_add(t, after[i].title, &a);
	}
	if (na > 0)
		mmf_bugs_free(after, na);
}

/*
 * The progress line (campaign.h): the proxies' samples summed, coverage
 * the most of any guest, findings what the store gained.
 */
static void progress(const struct mmf_campaign_opts *o, const struct instance *in, uint64_t t0,
		     const char *store, struct mmf_bug *before, int nb)
{
	uint64_t ms = (mmf_now_ns() - t0) / 1000000;
	struct mmf_progress p = { .ms = ms, .left_ms = o->duration_ms - (int64_t)ms };
	struct mmf_tally t = { 0 };

	for (int k = 0; k < o->vms; k++) {
		p.programs += sample_of(&in[k], "execs");
		p.pcs = MAX(p.pcs, sample_of(&in[k], "pcs"));
		p.edges = MAX(p.edges, sample_of(&in[k], "edges"));
		p.queue += queue_size(o, &in[k]);
		p.boots += sample_of(&in[k], "boots");
	}
	p.restarts = MAX(p.boots - o->vms, 0);
	tally_store(store, before, nb, &t);
	for (int i = 0; i < t.nr; i++)
		p.found += t.t[i].count;
	p.found_new = mmf_tally_new(&t);
	mmf_tally_free(&t);
	mmf_progress_print(o->info, &p);
}

/*
 * Whether each live instance's dry run is over: AFL++ runs every seed
 * once before it mutates, and says so in its log. A campaign does not
 * stop before that, however short its budget, for a seed that never ran
 * was a corpus entry wasted: the program a maintainer gave validate as
 * the one that reaches the patch. Should the line not come (another
 * AFL++), -V still ends the instance, its budget after the dry run.
 */
static bool seeds_run(struct instance *in, int nr)
{
	bool all = true;

	for (int k = 0; k < nr; k++) {
		char *path, *text;
		size_t len;

		if (in[k].seeds_run || in[k].pid <= 0)
			continue;
		path = mmf_xasprintf("%s/afl-fuzz.log", in[k].dir);
		text = mmf_read_file(path, &len);
		in[k].seeds_run = text && (size_t)in[k].log_from <= len &&
				  strstr(text + in[k].log_from, "All test cases processed");
		all &= in[k].seeds_run;
		free(text);
		free(path);
	}
	return all;
}

/* Scratch disks and the snapshot a killed proxy's guest left behind. */
static void remove_disks(const char *work)
{
	DIR *d = opendir(work);
	char *snap = mmf_xasprintf("%s/snapshot", work);
	struct dirent *e;

	mmf_vm_snapshot_remove(snap);
	free(snap);

	while (d && (e = readdir(d))) {
		char *boot;
		DIR *b;
		struct dirent *f;

		if (strncmp(e->d_name, "boot-", 5))
			continue;
		boot = mmf_xasprintf("%s/%s", work, e->d_name);
		b = opendir(boot);
		while (b && (f = readdir(b))) {
			if (mmf_has_suffix(f->d_name, ".img")) {
				char *p = mmf_xasprintf("%s/%s", boot, f->d_name);

				unlink(p);
				free(p);
			}
		}
		if (b)
			closedir(b);
		free(boot);
	}
	if (d)
		closedir(d);
}

int mmf_afl_campaign_run(const struct mmf_campaign_opts *o, struct mmf_campaign_stats *st,
			 char *err, size_t n)
{
	char *dir = exe_dir(), *self = mmf_xasprintf("%s/mmfuzz", dir);
	char *mutator = mmf_xasprintf("%s/mmfuzz-mutator.so", dir);
	char *store = mmf_campaign_store(o), *seeds, *focus = NULL;
	struct instance *in = mmf_xcalloc(o->vms, sizeof(*in));
	uint64_t t0 = mmf_now_ns(), last = t0;
	struct mmf_bug *before = NULL;
	int nb, nr_seeds, alive = 0, r = -1;

	memset(st, 0, sizeof(*st));
	nb = mmf_store_list(store, &before);
	/* A few generated programs where the corpus has fewer: AFL++ needs some. */
	seeds = mmf_seeds_make(o->out, "afl-seeds", o->corpus, 4, &nr_seeds, err, n);
	if (!seeds)
		goto out;
	if (o->focus && mmf_campaign_write_focus(o, &focus, err, n))
		goto out;
	fprintf(o->info, "mmfuzz: campaign: AFL++ engine, %d seed(s) in %s, mutator %s\n",
		nr_seeds, seeds, access(mutator, R_OK) ? "AFL++'s own" : mutator);
	set_env(access(mutator, R_OK) ? NULL : mutator,
		(int64_t)MMF_VM_BOOT_MS * 2 * 3 * mmf_vm_slowdown(o->guest.accel));
	for (int k = 0; k < o->vms; k++) {
		if (start(o, &in[k], k, seeds, self, focus, err, n))
			goto stop;
		alive++;
	}
	/*
	 * afl-fuzz's -V counts from the end of its dry run: the budget is
	 * ours, the wall time from here, but never cut into the dry run.
	 */
	while (alive && !*o->stop &&
	       ((int64_t)((mmf_now_ns() - t0) / 1000000) < o->duration_ms || !seeds_run(in, o->vms))) {
		/* Its own children only: others of the process (guests) are not ours. */
		for (int k = 0; k < o->vms; k++)
			if (in[k].pid > 0 && waitpid(in[k].pid, NULL, WNOHANG) == in[k].pid) {
				in[k].pid = 0;
				alive--;
			}
		if (!o->quiet && mmf_now_ns() - last >= MMF_PROGRESS_MS * 1000000ull) {
			progress(o, in, t0, store, before, nb);
			last = mmf_now_ns();
		}
		usleep(200000);
	}
	r = 0;
stop:
	/* afl-fuzz ends its fork server on SIGINT; the guest goes with it. */
	for (int k = 0; k < o->vms; k++)
		if (in[k].pid > 0)
			kill(in[k].pid, SIGINT);
	for (int k = 0; k < o->vms; k++) {
		uint64_t end = mmf_now_ns() + STOP_GRACE_MS * 1000000ull;
		int status;

		while (in[k].pid > 0 && waitpid(in[k].pid, &status, WNOHANG) == 0) {
			if (mmf_now_ns() > end) {
				kill(in[k].pid, SIGKILL);
				waitpid(in[k].pid, &status, 0);
				break;
			}
			usleep(100000);
		}
	}
	if (!r && !o->quiet)
		progress(o, in, t0, store, before, nb);
	for (int k = 0; k < o->vms; k++) {
		char *work = in[k].dir ? mmf_xasprintf("%s/work", in[k].dir) : NULL;

		st->programs += sample_of(&in[k], "execs");
		st->boots += sample_of(&in[k], "boots");
		if (work)
			remove_disks(work);
		free(work);
		free(in[k].dir);
	}
	/* A guest is replaced after each kernel report, death or silence. */
	st->restarts = st->boots > o->vms ? st->boots - o->vms : 0;
	tally_store(store, before, nb, &st->tally);
	for (int i = 0; i < st->tally.nr; i++)
		st->reports += st->tally.t[i].count;
out:
	if (nb > 0)
		mmf_bugs_free(before, nb);
	free(in);
	free(seeds);
	free(focus);
	free(store);
	free(mutator);
	free(self);
	free(dir);
	return r;
}
