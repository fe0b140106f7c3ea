// SPDX-License-Identifier: GPL-2.0
/*
 * Cause bisection, as syzbot does it: git bisect run over a work tree of
 * the user's tree, each step building the fuzzing kernel at that commit
 * (cached, incremental) and running the bug's reproducer in guests several
 * times, so that a flaky reproducer does not call a bad commit good. Both
 * ends are checked first: a bisection from a good end that crashes, or a
 * bad end that does not, would name a wrong commit.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign/guestrepro.h"
#include "nightly/internal.h"
#include "repro/repro.h"
#include "util/util.h"
#include "vm/vm.h"

#define REQUEST_MS	60000

/* git -C dir ARGS..., its first line of output into *line; the exit status. */
static int git(const char *dir, char **line, const char *a1, const char *a2, const char *a3,
	       const char *a4)
{
	const char *argv[] = { "git", "-C", dir, a1, a2, a3, a4, NULL };
	struct strbuf out;
	int r;

	mmf_sb_init(&out);
	r = mmf_nightly_cmd(argv, &out);
	if (line) {
		mmf_sb_add(&out, "", 0);
		out.buf[strcspn(out.buf, "\n")] = '\0';
		*line = mmf_sb_detach(&out);
	}
	mmf_sb_free(&out);
	return r;
}

/* The bisection's work tree of o->tree: one path per tree, so builds are incremental. */
static char *work_of(const struct mmf_bisect_opts *o)
{
	char *real = realpath(o->tree, NULL), *id;
	uint64_t h = 0xcbf29ce484222325ull;

	for (const char *p = real ? real : o->tree; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
	id = mmf_xasprintf("%s/bisect/%s-%016llx", mmf_vm_cache_dir(), o->arch,
			   (unsigned long long)h);
	free(real);
	return id;
}

static void say(const struct mmf_bisect_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(const struct mmf_bisect_opts *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mmf_nightly_vsay(o->info, "bisect: ", fmt, ap);
	va_end(ap);
}

/*
 * The kernel of the work tree's HEAD: built from the tree itself, or,
 * with a base (the good commit's tree elsewhere, e.g. the tarball it came
 * from), from the base with the commits since good as a patch, so that
 * the base's objects serve.
 */
static char *build(const struct mmf_bisect_opts *o, const char *work, char *err, size_t n)
{
	const struct mmf_vm_arch *a = mmf_vm_arch_find(o->arch);
	const char *argv[] = { "git", "-C", work, "diff", "--no-color", o->good, "HEAD", NULL };
	char *patch, *image;
	struct strbuf diff;

	if (!o->base)
		return mmf_vm_kernel_of(a, work, NULL, NULL, err, n);
	mmf_sb_init(&diff);
	if (mmf_nightly_cmd(argv, &diff)) {
		snprintf(err, n, "git diff %s HEAD failed in %s", o->good, work);
		mmf_sb_free(&diff);
		return NULL;
	}
	patch = mmf_xasprintf("%s.patch", work);
	if (diff.len && mmf_write_file_atomic(patch, diff.buf, diff.len)) {
		snprintf(err, n, "cannot write %s: %s", patch, strerror(errno));
		image = NULL;
	} else {
		image = mmf_vm_kernel_of(a, o->base, diff.len ? patch : NULL, NULL, err, n);
	}
	mmf_sb_free(&diff);
	free(patch);
	return image;
}

/* Runs of the reproducer in guests of image: how many of o->tries hit, or -1. */
static int repro_hits(const struct mmf_bisect_opts *o, const char *image, const char *stepdir,
		      char *err, size_t n)
{
	struct mmf_guest_repro_opts go = {
		.guest = { .mem_mb = o->mem_mb, .cpus = o->cpus, .guest_args = o->hook_args },
		.timeout_ms = REQUEST_MS, .workdir = stepdir, .info = o->info,
	};
	struct mmf_repro_progress progress = { 0 };
	struct mmf_repro_ops ops = {
		.run = mmf_guest_repro_run, .log = mmf_guest_repro_log, .progress = &progress,
	};
	char *path = mmf_xasprintf("%s/repro.prog", o->crashdir), *text, *title;
	struct mmf_prog *progs = mmf_xcalloc(MMF_REPRO_MAX_PROGS, sizeof(*progs));
	struct mmf_guest_repro *g;
	struct mmf_vm_images im;
	int nr, hits, runs;

	text = mmf_read_file(path, NULL);
	nr = text ? mmf_progs_parse(text, progs, MMF_REPRO_MAX_PROGS, err, n) : -1;
	free(text);
	free(path);
	path = mmf_xasprintf("%s/title", o->crashdir);
	title = mmf_read_file(path, NULL);
	free(path);
	if (nr <= 0 || !title || mmf_vm_guest_setup(&go.guest, o->arch, image, NULL, &im, err, n)) {
		if (nr == 0 || !title)
			snprintf(err, n, "%s: no reproducer (repro.prog) or title", o->crashdir);
		free(progs);
		free(title);
		return -1;
	}
	title[strcspn(title, "\n")] = '\0';
	g = mmf_guest_repro_new(&go);
	ops.ctx = g;
	/* Any hit says bad; good takes every try clean. */
	hits = mmf_repro_hits(&ops, progs, nr, title, o->tries, true, &runs);
	if (hits < 0)
		snprintf(err, n, "the guests of %s could not run the reproducer", image);
	mmf_guest_repro_free(g);
	mmf_vm_images_free(&im);
	free(progs);
	free(title);
	return hits;
}

int mmf_bisect_step(const struct mmf_bisect_opts *o)
{
	char *work = work_of(o), *head = NULL, *stepdir = NULL, err[512], *image;
	uint64_t t0 = mmf_now_ns();
	int hits, rc = MMF_BISECT_ABORT;

	if (git(work, &head, "rev-parse", "--short=12", "HEAD", NULL) || !*head) {
		say(o, "%s: no HEAD", work);
		goto out;
	}
	image = build(o, work, err, sizeof(err));
	if (!image) {
		/* A commit that does not build is skipped, as git bisect intends. */
		say(o, "%s: does not build, skipped: %s", head, err);
		rc = MMF_BISECT_SKIP;
		goto out;
	}
	stepdir = mmf_xasprintf("%s.steps/%s", work, head);
	if (mmf_mkdir_p(stepdir, 0755)) {
		say(o, "cannot create %s: %s", stepdir, strerror(errno));
		free(image);
		goto out;
	}
	say(o, "%s: built in %.0fs, running the reproducer %d time(s)", head,
	    (mmf_now_ns() - t0) / 1e9, o->tries);
	hits = repro_hits(o, image, stepdir, err, sizeof(err));
	free(image);
	if (hits < 0) {
		say(o, "%s: %s", head, err);
		goto out;
	}
	say(o, "%s: %s", head, hits ? "crashed: bad" : "clean: good");
	rc = hits ? MMF_BISECT_BAD : MMF_BISECT_GOOD;
out:
	free(head);
	free(stepdir);
	free(work);
	return rc;
}

/* The work tree at rev: made once, then moved. */
static int checkout(const struct mmf_bisect_opts *o, const char *work, const char *rev,
		    char *err, size_t n)
{
	const char *add[] = { "git", "-C", o->tree, "worktree", "add", "--quiet", "--detach",
			      "--force", work, rev, NULL };
	struct stat st;

	if (!stat(work, &st)) {
		git(work, NULL, "bisect", "reset", "--quiet", NULL);
		if (!git(work, NULL, "checkout", "--quiet", "--detach", rev))
			return 0;
		snprintf(err, n, "cannot check out %s in %s", rev, work);
		return -1;
	}
	git(o->tree, NULL, "worktree", "prune", NULL, NULL);
	if (mmf_nightly_cmd(add, NULL)) {
		snprintf(err, n, "cannot make a work tree of %s in %s", o->tree, work);
		return -1;
	}
	return 0;
}

/* One end, checked: it must be what the user says it is. */
static int check_end(const struct mmf_bisect_opts *o, const char *work, const char *rev,
		     int want, char *err, size_t n)
{
	int r;

	if (checkout(o, work, rev, err, n))
		return -1;
	say(o, "checking that %s is %s", rev, want == MMF_BISECT_BAD ? "bad" : "good");
	r = mmf_bisect_step(o);
	if (r == want)
		return 0;
	if (r == MMF_BISECT_GOOD || r == MMF_BISECT_BAD)
		snprintf(err, n, "%s %s: the reproducer %s there", want == MMF_BISECT_BAD ?
			 "--bad" : "--good", rev, r == MMF_BISECT_BAD ? "crashes" : "does not crash");
	else
		snprintf(err, n, "%s: the kernel could not be built or run", rev);
	return -1;
}

int mmf_bisect_run(const struct mmf_bisect_opts *o, char **first, char *err, size_t n)
{
	char *work = work_of(o), *top = NULL, *good = NULL, *bad = NULL, *subject = NULL;
	char tries[16], path[PATH_MAX];
	const char *argv[48];
	int na = 0, r = -1, ran;
	struct strbuf log;

	*first = NULL;
	mmf_sb_init(&log);
	if (git(o->tree, &top, "rev-parse", "--show-toplevel", NULL, NULL)) {
		snprintf(err, n, "%s is not a git tree", o->tree);
		goto out;
	}
	if (git(o->tree, &good, "rev-parse", "--verify", "--quiet", o->good) ||
	    git(o->tree, &bad, "rev-parse", "--verify", "--quiet", o->bad)) {
		snprintf(err, n, "%s: no commit %s", o->tree,
			 good && *good ? o->bad : o->good);
		goto out;
	}
	for (const char *const *f = (const char *const[]){ "title", "repro.prog", NULL }; *f; f++) {
		char *p = mmf_xasprintf("%s/%s", o->crashdir, *f);
		bool missing = access(p, R_OK);

		free(p);
		if (missing) {
			snprintf(err, n, "%s: no %s%s", o->crashdir, *f, strcmp(*f, "title") ?
				 " (a reproducer: run mmfuzz repro first)" : "");
			goto out;
		}
	}
	say(o, "work tree %s", work);
	if (check_end(o, work, bad, MMF_BISECT_BAD, err, n) ||
	    check_end(o, work, good, MMF_BISECT_GOOD, err, n))
		goto out;
	if (git(work, NULL, "bisect", "start", bad, good)) {
		snprintf(err, n, "git bisect start %s %s failed in %s", o->bad, o->good, work);
		goto out;
	}
	/* This very binary, also if it was replaced on disk meanwhile. */
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)getpid());
	snprintf(tries, sizeof(tries), "%d", o->tries);
	argv[na++] = "git";
	argv[na++] = "-C";
	argv[na++] = work;
	argv[na++] = "bisect";
	argv[na++] = "run";
	argv[na++] = path;
	argv[na++] = "bisect";
	argv[na++] = "--step";
	argv[na++] = "--tree";
	argv[na++] = o->tree;
	argv[na++] = "--good";
	argv[na++] = good;
	argv[na++] = "--bad";
	argv[na++] = bad;
	argv[na++] = "--arch";
	argv[na++] = o->arch;
	argv[na++] = "--tries";
	argv[na++] = tries;
	if (o->base) {
		argv[na++] = "--base";
		argv[na++] = o->base;
	}
	for (int i = 0; o->hook_args && o->hook_args[i] && na < (int)ARRAY_SIZE(argv) - 3; i++) {
		argv[na++] = "--hook-arg";
		argv[na++] = o->hook_args[i];
	}
	argv[na++] = o->crashdir;
	argv[na] = NULL;
	fflush(o->info);
	ran = mmf_nightly_cmd(argv, NULL);
	/* git bisect run ends its last line without a newline. */
	fputc('\n', o->info);
	if (ran ||
	    git(work, first, "rev-parse", "--verify", "--quiet", "refs/bisect/bad") || !**first) {
		snprintf(err, n, "git bisect run did not end in a first bad commit (see above)");
	} else {
		const char *lg[] = { "git", "-C", work, "bisect", "log", NULL };

		mmf_nightly_cmd(lg, &log);
		git(work, &subject, "log", "-1", "--format=%h (\"%s\")", *first);
		say(o, "the first bad commit is %s %s", *first, subject);
		say(o, "the bisection log:");
		fputs(log.buf ? log.buf : "", o->info);
		r = 0;
	}
	git(work, NULL, "bisect", "reset", "--quiet", NULL);
out:
	if (r) {
		free(*first);
		*first = NULL;
	}
	mmf_sb_free(&log);
	free(subject);
	free(top);
	free(good);
	free(bad);
	free(work);
	return r;
}
