// SPDX-License-Identifier: GPL-2.0
/*
 * Automatic reproduction, as syz-manager does it: every title the store has
 * not tried is reproduced in guests of its own while the campaign fuzzes.
 * The store is the queue: a title is untried while its repro is "none",
 * and a title tried (by this run or an earlier night) is not tried again.
 * First, as syzbot retests its reproducers, every bug with a reproducer
 * runs it on tonight's kernel: a hit counts as the bug seen tonight, so a
 * bug whose fuzzing took another path is not called fixed while its
 * reproducer still fires.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/crashdir.h"
#include "campaign/guestrepro.h"
#include "nightly/internal.h"
#include "repro/repro.h"
#include "util/util.h"

#define POLL_MS		2000
#define REQUEST_MS	30000	/* one request to a guest, as mmfuzz repro's default */
#define RETEST_RUNS	3	/* runs of a reproducer, at most, to call it firing */

struct worker {
	struct mmf_autorepro *a;
	int id;
	pthread_t thread;
	struct mmf_guest_repro_opts go;
	struct mmf_guest_repro *guest;
	char *workdir;
	const char *title;	/* being tried, for the log lines */
};

struct mmf_autorepro {
	struct mmf_autorepro_opts o;
	pthread_mutex_t lock;
	bool done;		/* fuzzing is over: stop when the queue is empty */
	int nr_taken;
	char **taken;		/* titles a worker took, by this run */
	int found, failed;
	int nr_started;
	struct worker *w;
};

static void info(struct worker *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void info(struct worker *w, const char *fmt, ...)
{
	char prefix[32];
	va_list ap;

	snprintf(prefix, sizeof(prefix), "nightly: repro %d: ", w->id);
	va_start(ap, fmt);
	mmf_nightly_vsay(w->a->o.info, prefix, fmt, ap);
	va_end(ap);
}

/* The worker of this thread: repro's log lines carry its title. */
static __thread struct worker *self;

static void repro_log(void *ctx, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	info(self, "'%s': %s", self->title, line);
}

static bool taken(struct mmf_autorepro *a, const char *title)
{
	for (int i = 0; i < a->nr_taken; i++)
		if (!strcmp(a->taken[i], title))
			return true;
	return false;
}

static bool has_arch(const char *list, const char *arch)
{
	size_t n = strlen(arch);

	for (const char *p = list; (p = strstr(p, arch)); p += n)
		if ((p == list || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return true;
	return !*list;	/* arch unknown: worth a try */
}

static bool has_progs(const struct mmf_bug *b)
{
	for (int i = 0; i < b->nr_occ; i++)
		if (b->occ[i].files & MMF_OCC_PROGS)
			return true;
	return false;
}

/* The bug's newest reproducer program, as a path; NULL if it has none. */
static char *newest_repro(const char *crashes, const struct mmf_bug *b)
{
	const char *file = NULL;

	for (int i = 0; i < b->nr_repro; i++)
		if (mmf_has_suffix(b->repro_files[i], ".prog"))
			file = b->repro_files[i];
	return file ? mmf_xasprintf("%s/%s/%s", crashes, b->name, file) : NULL;
}

/*
 * The next bug to work on, as its bug's directory name; NULL if none. A
 * reproducer to retest (*repro set) comes before an untried title.
 */
static char *next_bug(struct mmf_autorepro *a, char **title, char **repro)
{
	struct mmf_bug *b;
	char *name = NULL;
	int nb, pick = -1;

	pthread_mutex_lock(&a->lock);
	nb = mmf_store_list(a->o.crashes, &b);
	for (int i = 0; i < nb && pick < 0; i++) {
		if (mmf_bug_corrupted(&b[i]) || !has_arch(b[i].arch, a->o.arch) ||
		    taken(a, b[i].title))
			continue;
		*repro = newest_repro(a->o.crashes, &b[i]);
		if (*repro)
			pick = i;
	}
	/* Oldest first: the queue's order is the order they came in. */
	for (int i = nb - 1; i >= 0 && pick < 0; i--)
		if (!strcmp(b[i].repro, "none") && !mmf_bug_corrupted(&b[i]) &&
		    has_progs(&b[i]) && has_arch(b[i].arch, a->o.arch) &&
		    !taken(a, b[i].title))
			pick = i;
	if (pick >= 0) {
		name = mmf_xstrdup(b[pick].name);
		*title = mmf_xstrdup(b[pick].title);
		a->taken = mmf_xrealloc(a->taken, (a->nr_taken + 1) * sizeof(*a->taken));
		a->taken[a->nr_taken++] = mmf_xstrdup(b[pick].title);
	}
	if (nb > 0)
		mmf_bugs_free(b, nb);
	pthread_mutex_unlock(&a->lock);
	return name;
}

/* Run a known bug's reproducer; a hit is an occurrence tonight. */
static void retest(struct worker *w, const char *title, const char *path)
{
	struct mmf_autorepro *a = w->a;
	struct mmf_prog *progs = mmf_xmalloc(MMF_REPRO_MAX_PROGS * sizeof(*progs));
	char *text = mmf_read_file(path, NULL), err[256];
	int n = text ? mmf_progs_parse(text, progs, MMF_REPRO_MAX_PROGS, err, sizeof(err)) : -1;
	struct mmf_repro_ops ops = {
		.run = mmf_guest_repro_run,
		.deadline_ns = mmf_now_ns() + a->o.repro_ms * 1000000ull,
	};
	int hit, runs;

	if (n <= 0) {
		info(w, "'%s': %s: %s", title, path, text ? err : strerror(errno));
		goto out;
	}
	if (!w->guest)
		w->guest = mmf_guest_repro_new(&w->go);
	ops.ctx = w->guest;
	hit = mmf_repro_hits(&ops, progs, n, title, RETEST_RUNS, true, &runs);
	if (hit < 0) {
		info(w, "'%s': the guests could not run its reproducer", title);
	} else if (hit) {
		const struct mmf_crash c = {
			.title = title, .progs = text, .arch = a->o.arch,
			.report = "its reproducer fired again\n",
		};

		/* Counted only: the occurrences kept are the fuzzers'. */
		if (mmf_store_add_keep(a->o.crashes, &c, 0, NULL) < 0)
			info(w, "'%s': %s", title, mmf_store_err());
		info(w, "'%s': its reproducer still fires (run %d)", title, runs);
	} else {
		info(w, "'%s': its reproducer did not fire in %d runs", title, runs);
	}
out:
	free(text);
	free(progs);
}

static void try_title(struct worker *w, const char *name, const char *title)
{
	struct mmf_autorepro *a = w->a;
	char *dir = mmf_xasprintf("%s/%s", a->o.crashes, name), err[512];
	struct mmf_repro_progress progress = { 0 };
	struct mmf_repro_ops ops = {
		.attempts = 3, .min_attempts = 2, .max_steps = 300, .log = repro_log,
		.run = mmf_guest_repro_run, .progress = &progress,
	};
	struct mmf_crash_progs *c = mmf_xmalloc(sizeof(*c));
	struct mmf_repro_result *res = mmf_xmalloc(sizeof(*res));
	uint64_t t0 = mmf_now_ns();
	int r;

	w->title = title;
	if (mmf_crash_load(dir, c, err, sizeof(err))) {
		info(w, "'%s': %s", title, err);
		goto out;
	}
	if (!w->guest)
		w->guest = mmf_guest_repro_new(&w->go);
	ops.ctx = w->guest;
	ops.deadline_ns = t0 + a->o.repro_ms * 1000000ull;
	info(w, "'%s': %d program(s), at most %llds", title, c->nr,
	     (long long)a->o.repro_ms / 1000);
	r = mmf_crash_repro(&ops, c, res);
	pthread_mutex_lock(&a->lock);
	if (r < 0) {
		/* No guest ran it: not the title's fault; the next night tries. */
		info(w, "'%s': the guests could not run it", title);
	} else if (res->found) {
		if (mmf_crash_save_repro(dir, title, res) < 0)
			info(w, "'%s': %s", title, mmf_store_err());
		a->found++;
		info(w, "'%s': reproduced by %d program(s) of %d call(s), hit rate %d/%d, in %.0fs",
		     title, res->nr_progs, res->calls_after, res->hits, res->runs,
		     (mmf_now_ns() - t0) / 1e9);
	} else {
		if (mmf_store_set_repro(a->o.crashes, title, "no reproducer", NULL, NULL) < 0)
			info(w, "'%s': %s", title, mmf_store_err());
		a->failed++;
		info(w, "'%s': no reproducer in %.0fs", title, (mmf_now_ns() - t0) / 1e9);
	}
	pthread_mutex_unlock(&a->lock);
	mmf_crash_progs_free(c);
out:
	w->title = NULL;
	free(c);
	free(res);
	free(dir);
}

static bool over(struct mmf_autorepro *a)
{
	bool done;

	pthread_mutex_lock(&a->lock);
	done = a->done || *a->o.stop;
	pthread_mutex_unlock(&a->lock);
	return done;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	self = w;
	while (!*w->a->o.stop) {
		char *title = NULL, *repro = NULL, *name = next_bug(w->a, &title, &repro);

		if (name) {
			if (repro)
				retest(w, title, repro);
			else
				try_title(w, name, title);
			free(name);
			free(title);
			free(repro);
			continue;
		}
		if (over(w->a))
			break;
		usleep(POLL_MS * 1000);
	}
	return NULL;
}

struct mmf_autorepro *mmf_autorepro_start(const struct mmf_autorepro_opts *o, char *err,
					  size_t n)
{
	struct mmf_autorepro *a = mmf_xcalloc(1, sizeof(*a));
	struct mmf_guest_repro_opts go = {
		.guest = { .mem_mb = o->mem_mb, .cpus = o->cpus, .guest_args = o->hook_args },
		.timeout_ms = REQUEST_MS,
	};

	a->o = *o;
	pthread_mutex_init(&a->lock, NULL);
	mmf_vm_guest_use(&go.guest, mmf_vm_arch_find(o->arch), o->im);
	a->w = mmf_xcalloc(o->workers, sizeof(*a->w));
	for (int i = 0; i < o->workers; i++) {
		struct worker *w = &a->w[i];

		w->a = a;
		w->id = i;
		w->go = go;
		w->workdir = mmf_xasprintf("%s/w%d", o->workdir, i);
		w->go.workdir = w->workdir;
		if (mmf_mkdir_p(w->workdir, 0755)) {
			snprintf(err, n, "cannot create %s: %s", w->workdir, strerror(errno));
			a->nr_started = 0;
			mmf_autorepro_finish(a, NULL, NULL);
			return NULL;
		}
	}
	for (int i = 0; i < o->workers; i++) {
		if (pthread_create(&a->w[i].thread, NULL, worker_main, &a->w[i]))
			mmf_die("nightly: cannot start a thread");
		a->nr_started++;
	}
	return a;
}

void mmf_autorepro_finish(struct mmf_autorepro *a, int *found, int *failed)
{
	pthread_mutex_lock(&a->lock);
	a->done = true;
	pthread_mutex_unlock(&a->lock);
	for (int i = 0; i < a->nr_started; i++)
		pthread_join(a->w[i].thread, NULL);
	for (int i = 0; i < a->o.workers; i++) {
		if (a->w[i].guest)
			mmf_guest_repro_free(a->w[i].guest);
		free(a->w[i].workdir);
	}
	if (found)
		*found = a->found;
	if (failed)
		*failed = a->failed;
	for (int i = 0; i < a->nr_taken; i++)
		free(a->taken[i]);
	free(a->taken);
	free(a->w);
	pthread_mutex_destroy(&a->lock);
	free(a);
}
