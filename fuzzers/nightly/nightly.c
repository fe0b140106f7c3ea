// SPDX-License-Identifier: GPL-2.0
/*
 * One night: build the kernels, fuzz each arch in turn while a share of
 * the guests reproduces what comes in, then record the night, write the
 * reports of the bugs seen and the dashboard.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "campaign/afl.h"
#include "campaign/campaign.h"
#include "nightly/internal.h"
#include "store/tally.h"
#include "cover/cover.h"
#include "util/util.h"
#include "vm/vm.h"

/* A bug of the store before the night: name and count. */
struct seen {
	char *name;
	long count;
};

/* What one arch's kernel is, for the record. */
struct kernel_id {
	char *image, *key, *version, *config;
};

struct night {
	const struct mmf_nightly_opts *o;
	char *id, *dir, *crashes;
	char *commit;
	struct strbuf kernel, config, archs;
	int64_t fuzz_ms;
	uint64_t programs;
	int boots, found, failed;
	bool error;
	char err[512];
};

int mmf_nightly_cmd(const char *const *argv, struct strbuf *out)
{
	int pfd[2], status;
	char buf[4096];
	ssize_t r;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);

		dup2(devnull, 0);
		/* Captured: its complaints are the caller's to word. */
		if (out)
			dup2(open("/dev/null", O_WRONLY), 2);
		if (!out || dup2(pfd[1], 1) >= 0)
			execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "mmfuzz: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	while (pid > 0 && (r = read(pfd[0], buf, sizeof(buf))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		if (out)
			mmf_sb_add(out, buf, r);
	}
	close(pfd[0]);
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (pid < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void say(const struct night *nt, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(const struct night *nt, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mmf_nightly_vsay(nt->o->info, "nightly: ", fmt, ap);
	va_end(ap);
}

void mmf_nightly_vsay(FILE *f, const char *prefix, const char *fmt, va_list ap)
{
	if (!f)
		return;
	flockfile(f);
	fputs(prefix, f);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	fflush(f);
	funlockfile(f);
}

static int check(const struct mmf_nightly_opts *o, char *err, size_t n)
{
	struct stat st;

	if (!o->store) {
		snprintf(err, n, "give the nightly store (--store DIR)");
		return -1;
	}
	if (!o->kernel && !o->tree) {
		snprintf(err, n, "give the kernel tree to build (--tree DIR) or a kernel (--kernel)");
		return -1;
	}
	if (o->tree && stat(o->tree, &st)) {
		snprintf(err, n, "kernel tree %s: %s", o->tree, strerror(errno));
		return -1;
	}
	if (o->tree && !S_ISDIR(st.st_mode)) {
		snprintf(err, n, "kernel tree %s: not a directory", o->tree);
		return -1;
	}
	for (int i = 0; i < o->nr_arch; i++) {
		const struct mmf_vm_arch *a = mmf_vm_arch_find(o->arch[i]);

		if (!a) {
			snprintf(err, n, "unknown arch '%s' (x86_64, arm64)", o->arch[i]);
			return -1;
		}
		if (o->kernel && mmf_vm_kernel_check(a, o->kernel, err, n))
			return -1;
	}
	if (o->budget_ms / o->nr_arch < 1000) {
		snprintf(err, n, "a budget of %llds is less than a second per arch",
			 (long long)o->budget_ms / 1000);
		return -1;
	}
	return 0;
}

/* S/lock, held until the process ends: -1 and err when another run has it. */
static int take_lock(const char *store, char *err, size_t n)
{
	char *path = mmf_xasprintf("%s/lock", store);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0) {
		snprintf(err, n, "cannot create %s: %s", path, strerror(errno));
	} else if (flock(fd, LOCK_EX | LOCK_NB)) {
		snprintf(err, n, "%s is held: another nightly run uses this store", path);
		close(fd);
		fd = -1;
	}
	free(path);
	return fd;
}

static int make_night(struct night *nt, char *err, size_t n)
{
	return mmf_night_make(nt->o->store, &nt->id, &nt->dir, err, n);
}

static int snapshot(const char *crashes, struct seen **out)
{
	struct mmf_bug *b;
	int nb = mmf_store_list(crashes, &b);

	if (nb == -ENOENT)
		nb = 0;
	if (nb < 0)
		return nb;
	*out = mmf_xcalloc(nb + 1, sizeof(**out));
	for (int i = 0; i < nb; i++)
		(*out)[i] = (struct seen){ .name = mmf_xstrdup(b[i].name), .count = b[i].count };
	mmf_bugs_free(b, nb);
	return nb;
}

static void seen_free(struct seen *s, int n)
{
	for (int i = 0; i < n; i++)
		free(s[i].name);
	free(s);
}

/* The kernel of one arch: the image given, or the tree's build (cached). */
static int kernel_of(struct night *nt, const struct mmf_vm_arch *a, struct kernel_id *k,
		     char *err, size_t n)
{
	const char *o = nt->o->kernel;
	char *dir, *base, *p;

	memset(k, 0, sizeof(*k));
	if (o) {
		k->image = mmf_xstrdup(o);
	} else {
		say(nt, "building the %s kernel of %s (cached by source and config)", a->name,
		    nt->o->tree);
		k->image = mmf_vm_kernel_of(a, nt->o->tree, NULL, NULL, err, n);
		if (!k->image)
			return -1;
	}
	/* A build's cache entry is named ARCH-VERSION-TREEHASH-CONFIGHASH. */
	dir = mmf_xstrdup(k->image);
	p = strrchr(dir, '/');
	if (p)
		*p = '\0';
	base = strrchr(dir, '/');
	base = base ? base + 1 : dir;
	p = strrchr(base, '-');
	if (!strncmp(base, a->name, strlen(a->name)) && base[strlen(a->name)] == '-' && p) {
		k->key = mmf_xstrdup(base);
		k->config = mmf_xasprintf("%s (%s/.config)", p + 1, dir);
		*p = '\0';
		p = strrchr(base, '-');
		if (p)
			*p = '\0';
		k->version = mmf_xstrdup(base + strlen(a->name) + 1);
	} else {
		k->key = mmf_xstrdup(k->image);
		k->version = mmf_xstrdup(!strcmp(k->image, "debian") ? "Debian's 6.12" : "given");
		k->config = mmf_xstrdup(!strcmp(k->image, "debian") ? "Debian's" : "unknown");
	}
	free(dir);
	return 0;
}

static void kernel_id_free(struct kernel_id *k)
{
	free(k->image);
	free(k->key);
	free(k->version);
	free(k->config);
}

/* One arch's campaign, its guests shared with the reproducing ones. */
static int fuzz_arch(struct night *nt, const char *arch, int64_t budget_ms, char *err, size_t n)
{
	const struct mmf_nightly_opts *o = nt->o;
	const struct mmf_vm_arch *a = mmf_vm_arch_find(arch);
	int workers = o->vms >= 2 ? MAX(1, o->vms / 4) : 0;
	struct mmf_campaign_opts co = {
		.guest = { .mem_mb = o->mem_mb, .cpus = o->cpus, .guest_args = o->hook_args },
		.vms = o->vms - workers, .duration_ms = budget_ms, .stop = o->stop,
		.info = o->info, .store = nt->crashes,
	};
	struct mmf_autorepro_opts ro = {
		.crashes = nt->crashes, .arch = arch, .workers = MAX(workers, 1),
		.mem_mb = o->mem_mb, .cpus = o->cpus, .repro_ms = o->repro_ms,
		.hook_args = o->hook_args, .stop = o->stop, .info = o->info,
	};
	const char *corpus[MMF_NIGHTLY_CORPUS + 1] = { 0 };
	struct mmf_autorepro *ar = NULL;
	struct mmf_campaign_stats st;
	struct mmf_vm_images im;
	struct kernel_id k;
	uint64_t t0;
	bool afl;
	int rc, found = 0, failed = 0;

	if (kernel_of(nt, a, &k, err, n))
		return -1;
	mmf_sb_printf(&nt->kernel, "%s%s %s (%s)", nt->kernel.len ? ", " : "", arch, k.version,
		      k.image);
	mmf_sb_printf(&nt->config, "%s%s", nt->config.len ? " " : "", k.config);
	mmf_sb_printf(&nt->archs, "%s%s", nt->archs.len ? " " : "", arch);
	if (mmf_vm_images(a, k.image, NULL, &im, err, n)) {
		kernel_id_free(&k);
		return -1;
	}
	mmf_vm_guest_use(&co.guest, a, &im);
	co.vmlinux = im.vmlinux;
	co.out = mmf_xasprintf("%s/%s", nt->dir, arch);
	co.cover = im.kcov == 1;
	ro.im = &im;
	ro.workdir = mmf_xasprintf("%s/repro/%s", nt->dir, arch);
	for (int i = 0; o->corpus && o->corpus[i] && i < MMF_NIGHTLY_CORPUS; i++)
		corpus[i] = o->corpus[i];
	rc = mmf_campaign_engine(&co, o->engine ? o->engine : "mmfuzz", &im, corpus, &afl, err, n);
	if (!rc && mmf_mkdir_p(co.out, 0755)) {
		snprintf(err, n, "cannot create %s: %s", co.out, strerror(errno));
		rc = -1;
	}
	if (!rc && workers)
		rc = (ar = mmf_autorepro_start(&ro, err, n)) ? 0 : -1;
	if (!rc) {
		say(nt, "%s: %d guest(s) fuzzing and %d reproducing for %llds, kernel %s (%s)",
		    arch, co.vms, workers, (long long)budget_ms / 1000, k.version, im.kernel);
		t0 = mmf_now_ns();
		rc = afl ? mmf_afl_campaign_run(&co, &st, err, n) : mmf_campaign_run(&co, &st, err, n);
		nt->fuzz_ms += (mmf_now_ns() - t0) / 1000000;
		nt->programs += st.programs;
		nt->boots += st.boots;
		mmf_tally_free(&st.tally);
		if (rc)
			say(nt, "%s: the campaign failed: %s", arch, err);
		/* One guest in all: it reproduces once fuzzing is over. */
		if (!ar && !*o->stop) {
			say(nt, "%s: reproducing what is new", arch);
			ar = mmf_autorepro_start(&ro, nt->err, sizeof(nt->err));
		}
	}
	if (ar) {
		mmf_autorepro_finish(ar, &found, &failed);
		nt->found += found;
		nt->failed += failed;
	}
	free((char *)co.out);
	free((char *)ro.workdir);
	mmf_vm_images_free(&im);
	kernel_id_free(&k);
	return rc;
}

/* Each entry of dir whose name starts with prefix, as a path, to fn. */
static void each_entry(const char *dir, const char *prefix, void (*fn)(const char *, void *),
		       void *arg)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *path;

		if (strncmp(e->d_name, prefix, strlen(prefix)))
			continue;
		path = mmf_xasprintf("%s/%s", dir, e->d_name);
		fn(path, arg);
		free(path);
	}
	if (d)
		closedir(d);
}

struct figures {
	struct mmf_cover_pcs pcs;
	uint64_t swap_in, swap_out;
};

/* The swap traffic of one boot: its fuzzer's last progress line says it. */
static void boot_swaps(const char *boot, void *arg)
{
	char *path = mmf_xasprintf("%s/console.log", boot), *text = mmf_read_file(path, NULL);
	struct figures *f = arg;
	unsigned long long in = 0, out = 0;

	for (char *p = text; p && (p = strstr(p, " pswpin +")); p++)
		if (sscanf(p, " pswpin +%llu pswpout +%llu", &in, &out) != 2)
			in = out = 0;
	f->swap_in += in;
	f->swap_out += out;
	free(text);
	free(path);
}

static void vm_figures(const char *vm, void *arg)
{
	char *pcs = mmf_xasprintf("%s/pcs", vm), err[256];
	struct figures *f = arg;

	if (!access(pcs, R_OK))
		mmf_cover_pcs_read(pcs, &f->pcs, err, sizeof(err));
	each_entry(vm, "boot-", boot_swaps, f);
	free(pcs);
}

static void arch_figures(const char *dir, void *arg)
{
	each_entry(dir, "vm-", vm_figures, arg);
}

static long count_before(const struct seen *s, int n, const char *name, bool *found)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s[i].name, name)) {
			*found = true;
			return s[i].count;
		}
	*found = false;
	return 0;
}

/*
 * The night's record: night, bugs and summary.json, from the store's
 * counts against those before. Returns the bugs new tonight, or -1.
 */
static int record(struct night *nt, const struct seen *before, int nb, char *err, size_t n)
{
	const struct mmf_nightly_opts *o = nt->o;
	struct strbuf bugs, js;
	struct figures f = { 0 };
	struct mmf_bug *b = NULL;
	struct mmf_night rec;
	int na, nr_bugs = 0, nr_new = 0, r = 0;
	long findings = 0;
	double secs = nt->fuzz_ms / 1000.0;

	na = mmf_store_list(nt->crashes, &b);
	if (na == -ENOENT)
		na = 0;
	if (na < 0) {
		snprintf(err, n, "%s", mmf_store_err());
		return -1;
	}
	each_entry(nt->dir, "", arch_figures, &f);
	mmf_cover_pcs_sort(&f.pcs);
	mmf_sb_init(&bugs);
	mmf_sb_init(&js);
	for (int i = 0; i < na; i++) {
		bool known;
		long c = b[i].count - count_before(before, nb, b[i].name, &known);

		if (c <= 0)
			continue;
		mmf_night_bug(&bugs, &js, &b[i], c, !known);
		nr_bugs++;
		nr_new += !known;
		findings += c;
	}
	rec = (struct mmf_night){
		.id = nt->id, .kernel = nt->kernel.buf ? nt->kernel.buf : "",
		.commit = nt->commit, .config = nt->config.buf ? nt->config.buf : "",
		.arch = nt->archs.buf ? nt->archs.buf : "",
		.budget_s = o->budget_ms / 1000.0, .programs = nt->programs,
		.programs_s = secs > 0 ? nt->programs / secs : 0, .coverage = f.pcs.n,
		.swap_in = f.swap_in, .swap_out = f.swap_out, .findings = findings,
		.bugs = nr_bugs, .new_bugs = nr_new, .error = nt->error,
	};
	r = mmf_night_write(nt->dir, &(struct mmf_night_record){
		.night = &rec, .tree = o->tree, .fuzz_s = secs, .boots = nt->boots,
		.reproduced = nt->found, .no_reproducer = nt->failed,
		.bugs = bugs.buf ? bugs.buf : "", .bugs_json = js.buf ? js.buf : "",
	}, err, n);
	/* The reports of tonight's bugs, with what the night knows of the kernel. */
	for (int i = 0; i < na && !r; i++) {
		bool known;

		if (b[i].count - count_before(before, nb, b[i].name, &known) > 0 &&
		    mmf_bug_report_write(o->store, b[i].title, &rec, err, n))
			r = -1;
	}
	mmf_sb_free(&bugs);
	mmf_sb_free(&js);
	mmf_cover_pcs_free(&f.pcs);
	if (na > 0)
		mmf_bugs_free(b, na);
	return r ? -1 : nr_new;
}

static char *tree_commit(const char *tree)
{
	const char *argv[] = { "git", "-C", tree, "rev-parse", "HEAD", NULL };
	struct strbuf out;

	mmf_sb_init(&out);
	if (!tree || mmf_nightly_cmd(argv, &out) || !out.len) {
		mmf_sb_free(&out);
		return mmf_xstrdup(tree ? "none (not a git tree)" : "none (a kernel image)");
	}
	out.buf[strcspn(out.buf, "\n")] = '\0';
	return mmf_sb_detach(&out);
}

static bool is_commit(const char *s)
{
	return strlen(s) == 40 && strspn(s, "0123456789abcdef") == 40;
}

/*
 * Cause bisection of tonight's new bugs that have a reproducer, when the
 * tree is a git tree and an earlier night fuzzed another commit of it
 * without seeing them: that night's commit is good, tonight's bad. The
 * log goes to the bug's bisect.log, its verdict into its report.
 */
static void bisect_new(struct night *nt, const struct mmf_history *h)
{
	const struct mmf_night *good = NULL, *last = &h->nights[h->nr_nights - 1];
	struct mmf_bug *b;
	int nb;

	if (!is_commit(nt->commit) || strcmp(last->id, nt->id))
		return;
	for (int i = h->nr_nights - 2; i >= 0 && !good; i--)
		if (is_commit(h->nights[i].commit) && strcmp(h->nights[i].commit, nt->commit))
			good = &h->nights[i];
	nb = good ? mmf_store_list(nt->crashes, &b) : 0;
	for (int i = 0; i < h->nr_bugs; i++) {
		const struct mmf_bug_history *x = &h->bugs[i];
		int k = x->state == MMF_BUG_NEW && nb > 0 ? mmf_store_find(b, nb, x->title) : -1;
		struct mmf_bisect_opts bo = {
			.tree = nt->o->tree, .good = good ? good->commit : NULL, .bad = nt->commit,
			.arch = nt->o->arch[0], .tries = 6, .mem_mb = nt->o->mem_mb,
			.cpus = nt->o->cpus, .hook_args = nt->o->hook_args,
		};
		char *log, *first = NULL, err[512];

		if (k < 0 || !b[k].nr_repro)
			continue;
		bo.crashdir = mmf_xasprintf("%s/%s", nt->crashes, b[k].name);
		log = mmf_xasprintf("%s/bisect.log", bo.crashdir);
		bo.info = fopen(log, "w");
		say(nt, "bisecting '%s' from night %s (good) to tonight, log in %s", x->title,
		    good->id, log);
		if (bo.info && mmf_bisect_run(&bo, &first, err, sizeof(err)) == 0)
			say(nt, "'%s': the first bad commit is %s", x->title, first);
		else
			say(nt, "'%s': no cause bisection: %s", x->title,
			    bo.info ? err : strerror(errno));
		if (bo.info)
			fclose(bo.info);
		if (mmf_bug_report_write(nt->o->store, x->title, last, err, sizeof(err)))
			say(nt, "%s", err);
		free(first);
		free(log);
		free((char *)bo.crashdir);
	}
	if (nb > 0)
		mmf_bugs_free(b, nb);
}

/* The end of the night on stdout: the bugs seen and the state of each. */
static void print_summary(struct night *nt, const struct mmf_history *h)
{
	const struct mmf_night *last = h->nr_nights ? &h->nights[h->nr_nights - 1] : NULL;
	struct strbuf st;
	struct mmf_bug *b;
	int nb;

	if (!last || strcmp(last->id, nt->id))
		return;
	nb = mmf_store_list(nt->crashes, &b);
	say(nt, "night %s: %.0f programs (%.2f/s), coverage %.0f PCs, swap-in %.0f swap-out %.0f,"
	    " %d finding(s), %d bug(s), %d new, %d reproduced", last->id, last->programs,
	    last->programs_s, last->coverage, last->swap_in, last->swap_out, last->findings,
	    last->bugs, last->new_bugs, nt->found);
	mmf_sb_init(&st);
	for (int i = 0; i < h->nr_bugs; i++) {
		int k = nb > 0 ? mmf_store_find(b, nb, h->bugs[i].title) : -1;

		st.len = 0;
		mmf_bug_state_text(&h->bugs[i], &st);
		say(nt, "  %-36s %s%s", st.buf, h->bugs[i].title,
		    k >= 0 && mmf_bug_corrupted(&b[k]) ? " (corrupted report)" : "");
	}
	mmf_sb_free(&st);
	if (nb > 0)
		mmf_bugs_free(b, nb);
}

int mmf_nightly_run(const struct mmf_nightly_opts *o, char *err, size_t n)
{
	struct night nt = { .o = o };
	struct mmf_history h;
	struct seen *before = NULL;
	int lock, nb, nr_new = -1;

	if (check(o, err, n))
		return -1;
	if (mmf_mkdir_p(o->store, 0755) || access(o->store, W_OK)) {
		snprintf(err, n, "nightly store %s is not writable: %s", o->store, strerror(errno));
		return -1;
	}
	lock = take_lock(o->store, err, n);
	if (lock < 0)
		return -1;
	nt.crashes = mmf_xasprintf("%s/crashes", o->store);
	nb = snapshot(nt.crashes, &before);
	if (nb < 0) {
		snprintf(err, n, "%s", mmf_store_err());
		goto out;
	}
	if (make_night(&nt, err, n))
		goto out;
	nt.commit = tree_commit(o->tree);
	mmf_sb_init(&nt.kernel);
	mmf_sb_init(&nt.config);
	mmf_sb_init(&nt.archs);
	say(&nt, "night %s in %s: %s, commit %s, budget %llds, %d guest(s)", nt.id, nt.dir,
	    o->tree ? o->tree : o->kernel, nt.commit, (long long)o->budget_ms / 1000, o->vms);
	for (int i = 0; i < o->nr_arch && !*o->stop; i++)
		if (fuzz_arch(&nt, o->arch[i], o->budget_ms / o->nr_arch, nt.err,
			      sizeof(nt.err))) {
			nt.error = true;
			say(&nt, "%s: %s", o->arch[i], nt.err);
		}
	nr_new = record(&nt, before, nb, err, n);
	if (nr_new >= 0 && mmf_history_load(o->store, o->fixed_after, &h, err, n))
		nr_new = -1;
	if (nr_new > 0 && !*o->stop && !o->no_bisect)
		bisect_new(&nt, &h);
	if (nr_new >= 0) {
		print_summary(&nt, &h);
		if (mmf_dashboard_write(o->store, &h, err, n))
			nr_new = -1;
		else
			say(&nt, "dashboard: %s/index.html; the night: %s/summary.json", o->store,
			    nt.dir);
		mmf_history_free(&h);
	}
	if (nr_new >= 0 && nt.error) {
		snprintf(err, n, "%s", nt.err);
		nr_new = -1;
	}
out:
	seen_free(before, nb);
	mmf_sb_free(&nt.kernel);
	mmf_sb_free(&nt.config);
	mmf_sb_free(&nt.archs);
	free(nt.id);
	free(nt.dir);
	free(nt.commit);
	free(nt.crashes);
	close(lock);
	if (nr_new < 0)
		return -1;
	return nr_new ? MMF_EXIT_FOUND : MMF_EXIT_CLEAN;
}
