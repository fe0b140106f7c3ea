// SPDX-License-Identifier: GPL-2.0
/* The validation run: kernels, then each kernel's guest, then fuzzing. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "campaign/afl.h"
#include "campaign/campaign.h"
#include "campaign/crashdir.h"
#include "campaign/guestrepro.h"
#include "model/prog.h"
#include "repro/repro.h"
#include "util/rand.h"
#include "store/store.h"
#include "validate/validate.h"

static const char *const side_name[] = { "base", "patched" };

struct samples {
	struct mmf_val_metric *m;
	double *v[MMF_NR_SIDES];
	int n[MMF_NR_SIDES];
};

struct run {
	const struct mmf_validate_opts *o;
	struct mmf_val_result *r;
	struct mmf_vm_images im[MMF_NR_SIDES];
	struct mmf_vm_guest guest[MMF_NR_SIDES];	/* each side's, of im */
	/* what each case runs */
	struct mmf_prog (*progs)[MMF_REPRO_MAX_PROGS];
	int *nr_progs;
	const char **benches;
	int nr_benches;
	bool bench_auto;	/* choose the benchmarks by their reach */
	struct samples *samples;
	int nr_samples;
	char *weights;		/* the patched kernel's fuzzing weights, NULL: none */
	/* progress: the phase, how many there are, when the validation began */
	int phase, nr_phases;
	uint64_t t0;
	int fuzz_left;		/* kernels still to fuzz */
};

#define MAX_TITLES	4096
/* --runs auto: at least, at most */
#define AUTO_RUNS_MIN	3
#define AUTO_RUNS_MAX	20

static void info(const struct mmf_validate_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void info(const struct mmf_validate_opts *o, const char *fmt, ...)
{
	va_list ap;

	if (!o->info)
		return;
	va_start(ap, fmt);
	fputs("validate: ", o->info);
	vfprintf(o->info, fmt, ap);
	fputc('\n', o->info);
	fflush(o->info);
	va_end(ap);
}

/* A duration as people read it: 45s, 12m30s, 1h05m. */
static void fmt_ms(char *buf, size_t n, int64_t ms)
{
	long long s = ms / 1000;

	if (s >= 3600)
		snprintf(buf, n, "%lldh%02lldm", s / 3600, s / 60 % 60);
	else if (s >= 60)
		snprintf(buf, n, "%lldm%02llds", s / 60, s % 60);
	else
		snprintf(buf, n, "%llds", s);
}

/*
 * The next phase: its number of all, the time so far, and what is known
 * of the time left (the fuzzing budgets; builds, benchmarks and
 * reproducing take what they take).
 */
static void phase(struct run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void phase(struct run *run, const char *fmt, ...)
{
	char so_far[32], left[32], what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	fmt_ms(so_far, sizeof(so_far), (mmf_now_ns() - run->t0) / 1000000);
	fmt_ms(left, sizeof(left), run->fuzz_left * run->o->budget_ms);
	info(run->o, "phase %d of %d, %s in: %s%s%s%s", ++run->phase, run->nr_phases, so_far, what,
	     run->fuzz_left ? "; at least " : "", run->fuzz_left ? left : "",
	     run->fuzz_left ? " of fuzzing left" : "");
}

static int add_case(struct run *run, char *name, const char *title, const char *text,
		    char *err, size_t n)
{
	struct mmf_val_result *r = run->r;
	char e[256];
	int k;

	run->progs = mmf_xrealloc(run->progs, (r->nr_cases + 1) * sizeof(*run->progs));
	run->nr_progs = mmf_xrealloc(run->nr_progs, (r->nr_cases + 1) * sizeof(*run->nr_progs));
	k = mmf_progs_parse(text, run->progs[r->nr_cases], MMF_REPRO_MAX_PROGS, e, sizeof(e));
	if (k <= 0) {
		snprintf(err, n, "%s: %s", name, k ? e : "no program");
		free(name);
		return -1;
	}
	r->cases = mmf_xrealloc(r->cases, (r->nr_cases + 1) * sizeof(*r->cases));
	r->cases[r->nr_cases] = (struct mmf_val_case){ .name = name,
						       .title = title ? mmf_xstrdup(title) : NULL };
	run->nr_progs[r->nr_cases++] = k;
	return 0;
}

/* The newest reproducer of every bug of the store that has one. */
static int store_cases(struct run *run, char *err, size_t n)
{
	struct mmf_bug *bugs;
	int nb = mmf_store_list(run->o->store, &bugs), rc = 0;

	if (nb < 0) {
		snprintf(err, n, "crash store %s: %s", run->o->store, mmf_store_err());
		return -1;
	}
	for (int i = 0; i < nb && !rc; i++) {
		char *path = mmf_xasprintf("%s/%s/repro.prog", run->o->store, bugs[i].name);
		char *text = mmf_read_file(path, NULL);

		if (text)
			rc = add_case(run, mmf_xasprintf("repro: %s", bugs[i].title), bugs[i].title,
				      text, err, n);
		free(text);
		free(path);
	}
	if (nb > 0)
		mmf_bugs_free(bugs, nb);
	return rc;
}

static int corpus_cases(struct run *run, char *err, size_t n)
{
	struct dirent **ents;
	int ne = scandir(run->o->corpus, &ents, NULL, alphasort), rc = 0;

	if (ne < 0) {
		snprintf(err, n, "corpus %s: %s", run->o->corpus, strerror(errno));
		return -1;
	}
	for (int i = 0; i < ne; i++) {
		size_t len = strlen(ents[i]->d_name);
		char *path, *text;

		if (rc || len < 5 || strcmp(ents[i]->d_name + len - 4, ".mmf")) {
			free(ents[i]);
			continue;
		}
		path = mmf_xasprintf("%s/%s", run->o->corpus, ents[i]->d_name);
		text = mmf_read_file(path, NULL);
		if (!text) {
			snprintf(err, n, "%s: %s", path, strerror(errno));
			rc = -1;
		} else {
			rc = add_case(run, mmf_xasprintf("corpus: %s", ents[i]->d_name), NULL, text,
				      err, n);
		}
		free(text);
		free(path);
		free(ents[i]);
	}
	free(ents);
	return rc;
}

static int pick_benches(struct run *run, char *err, size_t n)
{
	const char *list = run->o->benches;
	char *copy, *tok, *save;

	if (!list || !strcmp(list, "none"))
		return 0;
	run->benches = mmf_xcalloc(mmf_nr_benches + 1, sizeof(*run->benches));
	/* Two kernels, no patch: nothing to aim at, the kernels compared whole. */
	run->bench_auto = !strcmp(list, "auto") && run->o->side[MMF_PATCHED].patches[0];
	if (!strcmp(list, "all") || !strcmp(list, "auto")) {
		for (size_t i = 0; i < mmf_nr_benches; i++)
			run->benches[run->nr_benches++] = mmf_benches[i].name;
		return 0;
	}
	copy = mmf_xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct mmf_bench_info *b = mmf_bench_find(tok);

		if (!b) {
			snprintf(err, n, "unknown benchmark '%s' (mmfuzz bench --list)", tok);
			free(copy);
			return -1;
		}
		if (run->nr_benches < (int)mmf_nr_benches)
			run->benches[run->nr_benches++] = b->name;
	}
	free(copy);
	return 0;
}

static struct samples *samples_of(struct run *run, const char *bench, const struct mmf_metric *m)
{
	struct samples *s;

	for (int i = 0; i < run->nr_samples; i++) {
		s = &run->samples[i];
		if (!strcmp(s->m->bench, bench) && !strcmp(s->m->name, m->name))
			return s;
	}
	run->samples = mmf_xrealloc(run->samples, (run->nr_samples + 1) * sizeof(*run->samples));
	s = &run->samples[run->nr_samples++];
	memset(s, 0, sizeof(*s));
	s->m = mmf_xcalloc(1, sizeof(*s->m));
	snprintf(s->m->bench, sizeof(s->m->bench), "%.31s", bench);
	snprintf(s->m->name, sizeof(s->m->name), "%.31s", m->name);
	s->m->unit = m->unit;
	s->m->higher_is_better = m->higher_is_better;
	return s;
}

static void add_samples(struct run *run, int side, const char *json)
{
	for (const char *p = json; p && *p; p = strchr(p, '\n') + 1) {
		char *line = strndup(p, strcspn(p, "\n")), name[64];
		struct mmf_bench_result res;

		if (!mmf_bench_parse(line, name, sizeof(name), &res)) {
			for (int i = 0; i < res.nr; i++) {
				struct samples *s = samples_of(run, name, &res.m[i]);

				s->v[side] = mmf_xrealloc(s->v[side], (s->n[side] + 1) * sizeof(double));
				s->v[side][s->n[side]++] = res.m[i].value;
			}
		}
		free(line);
		if (!strchr(p, '\n'))
			break;
	}
}

/* A guest of one side's kernel in OUT/NAME; its workdir is the caller's to free. */
static struct mmf_guest_repro *side_guest(struct run *run, int side, const char *name,
					  char **work)
{
	const struct mmf_validate_opts *o = run->o;
	struct mmf_guest_repro_opts go = {
		.guest = run->guest[side], .timeout_ms = 30000, .info = o->info,
	};

	*work = mmf_xasprintf("%s/%s", o->out, name);
	go.workdir = *work;
	return mmf_guest_repro_new(&go);
}

static void run_cases(struct run *run, int side, struct mmf_guest_repro *g)
{
	const struct mmf_validate_opts *o = run->o;

	for (int i = 0; i < run->r->nr_cases; i++) {
		struct mmf_val_case *c = &run->r->cases[i];

		for (int a = 0; a < o->attempts; a++) {
			struct strbuf titles;
			bool hit;

			mmf_sb_init(&titles);
			if (mmf_guest_repro_titles(g, run->progs[i], run->nr_progs[i], &titles)) {
				mmf_sb_free(&titles);
				break;
			}
			hit = c->title ? titles.len && strstr(titles.buf, c->title) : titles.len > 0;
			c->hits[side] += hit;
			c->runs[side]++;
			mmf_sb_free(&titles);
		}
		info(o, "%s: %s: %d/%d", side_name[side], c->name, c->hits[side], c->runs[side]);
	}
}

/*
 * --runs auto: enough runs when every metric's interval of the change is
 * within +-min_change/2 of its estimate, so that a change of min_change
 * would stand clear of no change.
 */
static bool narrow(const struct run *run, const char *bench)
{
	for (int i = 0; i < run->nr_samples; i++) {
		const struct samples *s = &run->samples[i];
		struct mmf_stats st[MMF_NR_SIDES];
		double lo, hi;

		if (strcmp(s->m->bench, bench))
			continue;
		for (int side = 0; side < MMF_NR_SIDES; side++)
			mmf_stats_of(s->v[side], s->n[side], &st[side]);
		if (st[MMF_BASE].mean == 0 ||
		    mmf_welch_interval(&st[MMF_BASE], &st[MMF_PATCHED], run->o->alpha, &lo, &hi) ||
		    (hi - lo) / 2 > run->o->min_change / 2 * fabs(st[MMF_BASE].mean))
			return false;
	}
	return true;
}

/*
 * Benchmark runs go to the two sides in turn, base first in odd runs and
 * patched first in even ones: a host whose load drifts during the
 * validation then weighs on both sides alike instead of on the later one.
 * Each run has a boot of its own: under TCG one boot of a kernel can run
 * a benchmark 60% slower than the next boot of the same kernel, every
 * run alike (where the host placed guest memory, the guest's own layout).
 * That is the variance between runs, not a difference of the kernels.
 */
static int run_benches(struct run *run, struct mmf_guest_repro *const g[MMF_NR_SIDES],
		       char *err, size_t n)
{
	const struct mmf_validate_opts *o = run->o;

	for (int i = 0; i < run->nr_benches; i++) {
		int runs = o->runs ? o->runs : AUTO_RUNS_MAX;
		struct mmf_val_case ended = { 0 };
		struct strbuf titles;

		mmf_sb_init(&titles);
		for (int r = 0; r < runs; r++) {
			if (!o->runs && r >= AUTO_RUNS_MIN && narrow(run, run->benches[i])) {
				info(o, "%s: intervals narrow enough after %d run(s)",
				     run->benches[i], r);
				break;
			}
			for (int k = 0; k < MMF_NR_SIDES; k++) {
				int side = r & 1 ? MMF_NR_SIDES - 1 - k : k;
				size_t before = titles.len;
				struct strbuf json;
				int got;

				mmf_sb_init(&json);
				got = mmf_guest_repro_bench(g[side], run->benches[i], 1, &json, &titles,
							    NULL);
				mmf_guest_repro_restart(g[side]);
				add_samples(run, side, json.buf);
				mmf_sb_free(&json);
				if (got < 0) {
					mmf_sb_free(&titles);
					free(ended.name);
					snprintf(err, n, "%s: benchmark %s failed in the guest (consoles in %s/%s)",
						 side_name[side], run->benches[i], o->out, side_name[side]);
					return -1;
				}
				ended.runs[side]++;
				ended.hits[side] += titles.len > before;
				if (titles.len > before && !ended.name)
					ended.name = mmf_xasprintf("bench %s: %.*s", run->benches[i],
								   (int)strcspn(titles.buf + before, "\n"),
								   titles.buf + before);
			}
		}
		mmf_sb_free(&titles);
		/* A run the kernel ended is a finding of both kernels' runs, as a reproducer's. */
		if (ended.name) {
			info(o, "%s: base %d/%d, patched %d/%d run(s) ended by the kernel", ended.name,
			     ended.hits[MMF_BASE], ended.runs[MMF_BASE], ended.hits[MMF_PATCHED],
			     ended.runs[MMF_PATCHED]);
			run->r->cases = mmf_xrealloc(run->r->cases,
						     (run->r->nr_cases + 1) * sizeof(*run->r->cases));
			run->r->cases[run->r->nr_cases++] = ended;
		}
	}
	return 0;
}

/* The changed functions' names whose text holds one of c's PCs, or NULL. */
static char *funcs_reached(const struct mmf_val_changes *ch, const struct mmf_guest_cover *c)
{
	struct strbuf sb;

	mmf_sb_init(&sb);
	for (int k = 0; k < ch->nr_funcs; k++) {
		const struct mmf_val_func *f = &ch->funcs[k];
		bool hit = false;

		for (size_t i = 0; i < c->nr_pcs && !hit; i++)
			hit = c->pcs[i] >= f->lo && c->pcs[i] < f->hi;
		if (hit)
			mmf_sb_printf(&sb, "%s%s", sb.len ? ", " : "", f->name);
	}
	return mmf_sb_detach(&sb);
}

/*
 * --bench auto: one run of each benchmark on the patched kernel with its
 * tasks traced (KCOV), the focus on the changed functions; those that
 * reached one are the benchmarks of the validation. Without KCOV or code
 * of the changed functions to look for, the reach is unknown: all run.
 */
static void choose_benches(struct run *run)
{
	struct mmf_val_changes *ch = &run->r->changes;
	struct mmf_val_result *r = run->r;
	struct mmf_guest_repro_opts go = {
		.guest = run->guest[MMF_PATCHED], .timeout_ms = 30000, .info = run->o->info,
	};
	struct mmf_focus focus = { 0 };
	struct mmf_guest_repro *g;
	char *focus_text;
	int chosen = 0;

	for (int k = 0; k < ch->nr_funcs; k++)
		mmf_focus_add(&focus, ch->funcs[k].lo, ch->funcs[k].hi);
	mmf_focus_merge(&focus);
	r->bench_reach = mmf_xcalloc(run->nr_benches + 1, sizeof(*r->bench_reach));
	if (!focus.n || run->im[MMF_PATCHED].kcov != 1) {
		info(run->o, "benchmarks: their reach is unknown (%s): all run",
		     focus.n ? "the patched kernel has no KCOV" : "no changed function has code");
		mmf_focus_free(&focus);
		return;
	}
	focus_text = mmf_focus_format(&focus);
	mmf_focus_free(&focus);
	go.focus = focus_text;
	go.workdir = mmf_xasprintf("%s/bench-reach", run->o->out);
	g = mmf_guest_repro_new(&go);
	r->bench_auto = true;
	for (int i = 0; i < run->nr_benches; i++) {
		struct mmf_guest_cover c;
		struct strbuf json, titles;
		char *funcs, *ended;

		mmf_guest_cover_init(&c);
		mmf_sb_init(&json);
		mmf_sb_init(&titles);
		funcs = mmf_guest_repro_bench(g, run->benches[i], 1, &json, &titles, &c) > 0 &&
			!titles.len ? funcs_reached(ch, &c) : NULL;
		ended = NULL;
		if (titles.len) {	/* its first title */
			titles.buf[strcspn(titles.buf, "\n")] = '\0';
			ended = mmf_sb_detach(&titles);
		}
		r->bench_reach[r->nr_bench_reach++] = (struct mmf_val_bench_reach){
			.bench = run->benches[i], .funcs = funcs, .ended = ended,
		};
		if (ended)
			info(run->o, "benchmark %s was ended by %s", run->benches[i], ended);
		else
			info(run->o, "benchmark %s reaches %s", run->benches[i],
			     funcs && *funcs ? funcs : "no changed function");
		/* A run the patched kernel ended runs on both: that is a finding. */
		if ((funcs && *funcs) || ended)
			run->benches[chosen++] = run->benches[i];
		mmf_sb_free(&titles);
		mmf_sb_free(&json);
		mmf_guest_cover_free(&c);
	}
	run->nr_benches = chosen;
	mmf_guest_repro_free(g);
	free((char *)go.workdir);
	free(focus_text);
}

/* Every case on each side, then the benchmarks on both: all in guests. */
static int run_guests(struct run *run, char *err, size_t n)
{
	struct mmf_guest_repro *g[MMF_NR_SIDES];
	char *work[MMF_NR_SIDES];
	int rc;

	if (run->r->nr_cases)
		phase(run, "%d reproducer(s) and program(s), %d run(s) each on each kernel",
		      run->r->nr_cases, run->o->attempts);
	for (int s = 0; s < MMF_NR_SIDES; s++)
		g[s] = side_guest(run, s, side_name[s], &work[s]);
	for (int s = 0; s < MMF_NR_SIDES; s++)
		run_cases(run, s, g[s]);
	if (run->nr_benches) {
		phase(run, "benchmarks%s", run->bench_auto ? ": those reaching a changed function" : "");
		if (run->bench_auto)
			choose_benches(run);
	}
	rc = run_benches(run, g, err, n);
	for (int s = 0; s < MMF_NR_SIDES; s++) {
		mmf_guest_repro_free(g[s]);
		free(work[s]);
	}
	return rc;
}

/* The budget ends a campaign of the validation, nothing else. */
static volatile int never_stop;

static int fuzz_side(struct run *run, int side, char **titles, int *nt, char *err, size_t n)
{
	const struct mmf_validate_opts *o = run->o;
	char *out = mmf_xasprintf("%s/fuzz-%s", o->out, side_name[side]), *crashes, *weights = NULL;
	char budget[32];
	struct mmf_campaign_opts co = {
		.guest = run->guest[side], .vmlinux = run->im[side].vmlinux, .out = out,
		.vms = 1, .duration_ms = o->budget_ms, .stop = &never_stop, .info = o->info,
	};
	const char *corpus[2] = { o->seeds };
	struct mmf_campaign_stats st;
	struct mmf_bug *bugs;
	bool afl;
	int nb, rc;

	/*
	 * AFL++ over KCOV where the kernel has it, whatever the campaigns'
	 * default: only its map can weigh the patch's code more.
	 */
	co.cover = run->im[side].kcov == 1;
	if (mmf_campaign_engine(&co, co.cover && mmf_afl_available() ? "afl" : "mmfuzz",
				&run->im[side], corpus, &afl, err, n)) {
		free(out);
		return -1;
	}
	if (mmf_mkdir_p(out, 0755)) {
		snprintf(err, n, "%s: %s", out, strerror(errno));
		free(out);
		return -1;
	}
	run->r->engine = afl ? "AFL++ over KCOV" : "mmfuzz";
	if (side == MMF_PATCHED && afl && run->weights) {
		weights = mmf_xasprintf("%s/weights", out);
		if (mmf_write_file_atomic(weights, run->weights, strlen(run->weights))) {
			snprintf(err, n, "%s: %s", weights, strerror(errno));
			free(weights);
			free(out);
			return -1;
		}
		co.weights = weights;
		run->r->changes.cover = true;
	}
	fmt_ms(budget, sizeof(budget), o->budget_ms);
	phase(run, "fuzzing the %s kernel for %s (%s)", side_name[side], budget, run->r->engine);
	run->fuzz_left--;
	rc = afl ? mmf_afl_campaign_run(&co, &st, err, n) : mmf_campaign_run(&co, &st, err, n);
	mmf_tally_free(&st.tally);
	free(weights);
	if (rc) {
		free(out);
		return -1;
	}
	crashes = mmf_campaign_store(&co);
	nb = mmf_store_list(crashes, &bugs);
	for (int i = 0; i < nb && *nt < MAX_TITLES; i++)
		titles[(*nt)++] = mmf_xstrdup(bugs[i].title);
	if (nb > 0)
		mmf_bugs_free(bugs, nb);
	free(crashes);
	free(out);
	return 0;
}

/* Count, per changed function, the programs whose weighted PCs are in it. */
static void count_reach(struct run *run)
{
	struct mmf_val_changes *c = &run->r->changes;
	char *path = mmf_xasprintf("%s/fuzz-patched/vm-0/weighted", run->o->out);
	char *text = mmf_read_file(path, NULL);
	bool *hit = mmf_xcalloc(c->nr_funcs + 1, sizeof(*hit));

	for (char *l = text; l && *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n')) {
		memset(hit, 0, c->nr_funcs * sizeof(*hit));
		for (char *p = l; *p && *p != '\n';) {
			char *end;
			uint64_t pc = strtoull(p, &end, 16);

			if (end == p)
				break;
			for (int k = 0; k < c->nr_funcs; k++)
				hit[k] |= pc >= c->funcs[k].lo && pc < c->funcs[k].hi;
			p = end + strspn(end, " ");
		}
		for (int k = 0; k < c->nr_funcs; k++)
			c->funcs[k].programs += hit[k];
	}
	free(hit);
	free(text);
	free(path);
}

/* A patched-only title's reproducer on the patched kernel, then it and its mutants on the base. */
static void confirm(struct run *run, struct mmf_val_finding *f)
{
	const struct mmf_validate_opts *o = run->o;
	struct mmf_repro_ops ops = {
		.attempts = o->attempts, .min_attempts = 2, .max_steps = 200,
		.run = mmf_guest_repro_run,
	};
	char *dir = NULL, *work[MMF_NR_SIDES] = { 0 }, err[512], *crashes;
	struct mmf_crash_progs *c = mmf_xcalloc(1, sizeof(*c));
	struct mmf_repro_result *res = mmf_xcalloc(1, sizeof(*res));
	struct mmf_guest_repro *g;
	struct mmf_bug *bugs;
	int nb;

	f->verdict = "not reproduced";
	crashes = mmf_xasprintf("%s/fuzz-patched/crashes", o->out);
	nb = mmf_store_list(crashes, &bugs);
	for (int i = 0; i < nb && !dir; i++)
		if (!strcmp(bugs[i].title, f->title))
			dir = mmf_xasprintf("%s/%s", crashes, bugs[i].name);
	if (nb > 0)
		mmf_bugs_free(bugs, nb);
	if (!dir || mmf_crash_load(dir, c, err, sizeof(err))) {
		info(o, "'%s': nothing to reproduce from", f->title);
		goto out;
	}
	info(o, "'%s': reproducing on the patched kernel, at most %llds", f->title,
	     (long long)o->repro_ms / 1000);
	g = side_guest(run, MMF_PATCHED, "repro-patched", &work[MMF_PATCHED]);
	ops.ctx = g;
	ops.deadline_ns = mmf_now_ns() + o->repro_ms * 1000000ull;
	if (mmf_crash_repro(&ops, c, res) == 0 && res->found) {
		struct mmf_rand rnd;

		f->repro_hits = res->hits;
		f->repro_runs = res->runs;
		if (mmf_crash_save_repro(dir, f->title, res) == 0)
			f->repro = mmf_xasprintf("%s/repro.prog", dir);
		mmf_guest_repro_free(g);
		/*
		 * The base is called clean only when the reproducer and a few
		 * slight mutations of it all fail there: a reproducer tuned to
		 * the patched kernel's timing or layout may miss the base's bug
		 * by a hair.
		 */
		g = side_guest(run, MMF_BASE, "repro-base", &work[MMF_BASE]);
		mmf_rand_seed(&rnd, 1);
		for (int m = 0; m <= o->mutants; m++) {
			struct mmf_prog *p = mmf_xmalloc(res->nr_progs * sizeof(*p));

			memcpy(p, res->progs, res->nr_progs * sizeof(*p));
			if (m)
				mmf_prog_mutate(&rnd, &p[res->nr_progs - 1], &res->progs[0]);
			for (int a = 0; a < o->attempts; a++) {
				int hit = mmf_guest_repro_run(g, p, res->nr_progs, f->title);

				f->base_hits += hit > 0;
				f->base_runs += hit >= 0;
			}
			free(p);
		}
		f->verdict = f->base_hits ? "pre-existing" : "patched-only";
		info(o, "'%s': %s (patched %d/%d, base %d/%d)", f->title, f->verdict,
		     f->repro_hits, f->repro_runs, f->base_hits, f->base_runs);
	} else {
		info(o, "'%s': no reproducer", f->title);
	}
	mmf_guest_repro_free(g);
	mmf_crash_progs_free(c);
out:
	for (int s = 0; s < MMF_NR_SIDES; s++)
		free(work[s]);
	free(c);
	free(res);
	free(dir);
	free(crashes);
}

struct kept_file {
	char *path;
	struct timespec mtime;
};

/*
 * The first kept first: AFL++ runs its seeds before anything it makes,
 * so a maintainer's own programs that reach the patch are compared first.
 */
static int earlier(const void *a, const void *b)
{
	const struct kept_file *x = a, *y = b;

	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
	if (x->mtime.tv_nsec != y->mtime.tv_nsec)
		return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* A program of the differential verdict and its clean traces on each kernel. */
struct traced {
	char *path;
	struct mmf_prog p;
	struct mmf_guest_cover *runs[MMF_NR_SIDES];
	int nruns[MMF_NR_SIDES];
};

/*
 * Every program once on each kernel, the kernels in turn; a run that did
 * not end cleanly (a kernel report, a timeout) is no trace of behaviour
 * and is left out.
 */
static void trace_all(struct mmf_guest_repro *const g[MMF_NR_SIDES], struct traced *t, int nt,
		      int attempt)
{
	for (int i = 0; i < nt; i++) {
		for (int k = 0; k < MMF_NR_SIDES; k++) {
			int s = attempt & 1 ? MMF_NR_SIDES - 1 - k : k;
			struct mmf_guest_cover *c = &t[i].runs[s][t[i].nruns[s]];

			mmf_guest_cover_init(c);
			if (!mmf_guest_repro_trace(g[s], &t[i].p, c) && !strcmp(c->outcome, "ok") &&
			    !c->nr_reports)
				t[i].nruns[s]++;
			else
				mmf_guest_cover_free(c);
		}
	}
}

/* The first max programs fuzzing kept for reaching a changed function. */
static int reached_programs(const char *dir, int max, struct traced **out)
{
	struct kept_file *files = NULL;
	struct traced *t = NULL;
	struct dirent **ents;
	int ne = scandir(dir, &ents, NULL, alphasort), nf = 0, nt = 0;

	for (int i = 0; i < ne; i++) {
		char *path = mmf_xasprintf("%s/%s", dir, ents[i]->d_name);
		struct stat st;

		if (strstr(ents[i]->d_name, ".mmf") && !stat(path, &st) && S_ISREG(st.st_mode)) {
			files = mmf_xrealloc(files, (nf + 1) * sizeof(*files));
			files[nf].path = path;
			files[nf++].mtime = st.st_mtim;
		} else {
			free(path);
		}
		free(ents[i]);
	}
	if (ne >= 0)
		free(ents);
	qsort(files, nf, sizeof(*files), earlier);
	t = mmf_xcalloc(MIN(nf, max) + 1, sizeof(*t));
	for (int i = 0; i < nf; i++) {
		char *text = nt < max ? mmf_read_file(files[i].path, NULL) : NULL;
		char e[256];

		if (text && !mmf_prog_parse(text, &t[nt].p, e, sizeof(e)))
			t[nt++].path = files[i].path;
		else
			free(files[i].path);
		free(text);
	}
	free(files);
	*out = t;
	return nt;
}

/*
 * The differential verdict: the programs fuzzing kept for reaching the
 * changed functions (the first o->behaviour), each run o->attempts
 * times on each kernel, compared (differ.c). The first runs and the rest
 * are on different boots of each kernel: a value that one boot gives and
 * another does not (where memory happened to be) is no kernel's.
 */
static void differ_programs(struct run *run)
{
	const struct mmf_validate_opts *o = run->o;
	char *dir = mmf_xasprintf("%s/fuzz-patched/vm-0/reached", o->out);
	struct mmf_guest_repro *g[MMF_NR_SIDES];
	struct mmf_val_result *r = run->r;
	char *work[MMF_NR_SIDES];
	struct traced *t;
	int nt = reached_programs(dir, o->behaviour, &t);

	r->differed = true;
	phase(run, "%d program(s) that reached a changed function, %d run(s) on each kernel:"
	      " what they do", nt, o->attempts);
	r->behaviour = mmf_xcalloc(nt + 1, sizeof(*r->behaviour));
	for (int i = 0; i < nt; i++) {
		r->behaviour[i].program = t[i].path;
		for (int s = 0; s < MMF_NR_SIDES; s++)
			t[i].runs[s] = mmf_xcalloc(o->attempts, sizeof(*t[i].runs[s]));
	}
	for (int s = 0; s < MMF_NR_SIDES && nt; s++)
		g[s] = side_guest(run, s, s ? "differ-patched" : "differ-base", &work[s]);
	for (int a = 0; a < o->attempts && nt; a++) {
		for (int s = 0; s < MMF_NR_SIDES && a == 1; s++)
			mmf_guest_repro_restart(g[s]);
		trace_all(g, t, nt, a);
	}
	for (int i = 0; i < nt; i++) {
		struct mmf_val_behaviour *b = &r->behaviour[r->nr_behaviour++];

		b->runs[MMF_BASE] = t[i].nruns[MMF_BASE];
		b->runs[MMF_PATCHED] = t[i].nruns[MMF_PATCHED];
		if (b->runs[MMF_BASE] >= 2 && b->runs[MMF_PATCHED] >= 2 &&
		    mmf_val_differ(&t[i].p, (const struct mmf_guest_cover *const *)t[i].runs,
				   t[i].nruns, b) && b->first >= 0) {
			struct strbuf sb;

			mmf_sb_init(&sb);
			mmf_stmt_print(&t[i].p.stmts[b->first], &sb);
			b->stmt = mmf_sb_detach(&sb);
		}
		info(o, "%s: %s (runs: base %d, patched %d)", b->program,
		     b->nr_items ? "behaves differently" : "the same", b->runs[0], b->runs[1]);
		for (int s = 0; s < MMF_NR_SIDES; s++) {
			for (int k = 0; k < t[i].nruns[s]; k++)
				mmf_guest_cover_free(&t[i].runs[s][k]);
			free(t[i].runs[s]);
		}
	}
	for (int s = 0; s < MMF_NR_SIDES && nt; s++) {
		mmf_guest_repro_free(g[s]);
		free(work[s]);
	}
	free(t);
	free(dir);
}

/*
 * Whether fuzzing aimed at a patch is followed by the differential
 * verdict: a kernel's value is what all its runs agree on, two at least.
 */
static bool compares(const struct mmf_validate_opts *o)
{
	return o->side[MMF_PATCHED].patches[0] && o->behaviour && o->attempts >= 2;
}

static int fuzz_both(struct run *run, char *err, size_t n)
{
	static char *titles[MMF_NR_SIDES][MAX_TITLES];
	int nt[MMF_NR_SIDES] = { 0 }, rc = 0;
	struct mmf_val_result *r = run->r;

	for (int s = 0; s < MMF_NR_SIDES && !rc; s++)
		rc = fuzz_side(run, s, titles[s], &nt[s], err, n);
	r->fuzzed = !rc;
	r->findings = mmf_xcalloc(nt[MMF_PATCHED] + 1, sizeof(*r->findings));
	for (int i = 0; i < nt[MMF_PATCHED] && !rc; i++) {
		struct mmf_val_finding *f = &r->findings[r->nr_findings++];

		f->title = mmf_xstrdup(titles[MMF_PATCHED][i]);
		for (int j = 0; j < nt[MMF_BASE]; j++)
			f->on_base |= !strcmp(titles[MMF_BASE][j], f->title);
		if (f->on_base)
			f->verdict = "pre-existing";
		else
			confirm(run, f);
	}
	if (!rc && r->changes.cover)
		count_reach(run);
	if (!rc && r->changes.cover && compares(run->o))
		differ_programs(run);
	else if (compares(run->o))
		run->nr_phases--;	/* no reach known: no programs to compare */
	for (int s = 0; s < MMF_NR_SIDES; s++) {
		r->nr_titles[s] = nt[s];
		for (int i = 0; i < nt[s]; i++)
			free(titles[s][i]);
	}
	return rc;
}

static char *entry_source(const char *file, void *arg)
{
	char *path = mmf_xasprintf("%s/source/%s", (const char *)arg, file);
	char *text = mmf_read_file(path, NULL);

	free(path);
	return text;
}

/*
 * What the patches change, from the build's entry (the patches and the
 * files they made) and the two vmlinux files; the weights of the patched
 * kernel's fuzzing: 8 for the changed functions, 2 for the rest of the
 * patch's files, as syz-diff weighs them.
 */
static int patch_changes(struct run *run, char *err, size_t n)
{
	struct mmf_val_changes *c = &run->r->changes;
	char *entry = mmf_xstrdup(run->im[MMF_PATCHED].kernel), *slash = strrchr(entry, '/');
	char *path, *patches;
	struct strbuf w;
	int rc = -1;

	if (slash)
		*slash = '\0';
	path = mmf_xasprintf("%s/patches", entry);
	patches = mmf_read_file(path, NULL);
	if (!patches) {
		snprintf(err, n, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (mmf_val_changes_parse(patches, entry_source, entry, c, err, n))
		goto out;
	run->r->has_changes = true;
	if (run->im[MMF_BASE].vmlinux && run->im[MMF_PATCHED].vmlinux &&
	    mmf_val_changes_code(c, run->im[MMF_BASE].vmlinux, run->im[MMF_PATCHED].vmlinux, err, n))
		goto out;
	mmf_sb_init(&w);
	mmf_sb_puts(&w, "# the functions the patch changes, then the rest of its files\n");
	for (int i = 0; i < c->nr_funcs; i++)
		if (c->funcs[i].hi)
			mmf_sb_printf(&w, "%d %llx-%llx\n", MMF_WEIGHT_CHANGED,
				      (unsigned long long)c->funcs[i].lo,
				      (unsigned long long)c->funcs[i].hi);
	for (size_t i = 0; i < c->file_text.n; i++)
		mmf_sb_printf(&w, "2 %llx-%llx\n", (unsigned long long)c->file_text.v[i].lo,
			      (unsigned long long)c->file_text.v[i].hi);
	run->weights = mmf_sb_detach(&w);
	info(run->o, "the patch changes %d file(s) and %d function(s)", c->nr_files, c->nr_funcs);
	rc = 0;
out:
	free(patches);
	free(path);
	free(entry);
	return rc;
}

/* The patches, in order, as one file the kernel build applies. */
static char *write_series(const struct mmf_validate_opts *o, const char *const *patches,
			  char **names, char *err, size_t n)
{
	char *path = mmf_xasprintf("%s/series.patch", o->out);
	struct strbuf all, nm;

	mmf_sb_init(&all);
	mmf_sb_init(&nm);
	for (int i = 0; patches[i]; i++) {
		size_t len;
		char *text = mmf_read_file(patches[i], &len);

		if (!text) {
			snprintf(err, n, "patch %s: %s", patches[i], strerror(errno));
			mmf_sb_free(&all);
			mmf_sb_free(&nm);
			free(path);
			return NULL;
		}
		mmf_sb_add(&all, text, len);
		if (len && text[len - 1] != '\n')
			mmf_sb_puts(&all, "\n");
		mmf_sb_printf(&nm, "%s%s", i ? ", " : "", patches[i]);
		free(text);
	}
	if (mmf_write_file_atomic(path, all.buf ? all.buf : "", all.len)) {
		snprintf(err, n, "%s: %s", path, strerror(errno));
		free(path);
		path = NULL;
	}
	mmf_sb_free(&all);
	*names = mmf_sb_detach(&nm);
	return path;
}

/* Whether w is one of the space-separated words of list. */
static bool listed(const char *list, const char *w)
{
	size_t len = strlen(w);

	for (const char *p = list; p; p = strchr(p, ' '), p = p ? p + 1 : NULL)
		if (!strncmp(p, w, len) && (p[len] == ' ' || !p[len]))
			return true;
	return false;
}

static char *no_source(const char *file, void *arg)
{
	(void)file;
	(void)arg;
	return NULL;
}

/*
 * The C files of mm/ a diff touches, added once each to *files (" "
 * between): both kernels are built with KCOV in them, so that fuzzing sees
 * the changed functions reached also where mm/Makefile turns KCOV off.
 */
static void add_kcov_files(char **files, const char *diff)
{
	struct mmf_val_changes c;
	char err[256];

	if (mmf_val_changes_parse(diff, no_source, NULL, &c, err, sizeof(err)))
		return;	/* the build and patch_changes() say what is wrong */
	for (int i = 0; i < c.nr_files; i++) {
		const char *f = c.files[i];
		size_t len = strlen(f);
		char *old = *files;

		if (strncmp(f, "mm/", 3) || len < 6 || strcmp(f + len - 2, ".c") ||
		    (old && listed(old, f)))
			continue;
		*files = old ? mmf_xasprintf("%s %s", old, f) : mmf_xstrdup(f);
		free(old);
	}
	mmf_val_changes_free(&c);
}

/* A patch file: its patches' subjects for the verdict; none is an error. */
static int read_patch(struct run *run, const char *path, char *err, size_t n)
{
	struct mmf_val_series *all = &run->r->series, one;
	struct stat st;
	char *text;

	errno = 0;
	text = stat(path, &st) || !S_ISREG(st.st_mode) ? NULL : mmf_read_file(path, NULL);
	if (!text) {
		snprintf(err, n, "patch %s: %s", path, errno ? strerror(errno) : "not a file");
		return -1;
	}
	mmf_val_series_parse(text, &one);
	add_kcov_files(&run->r->kcov_files, text);
	free(text);
	if (!one.nr) {
		snprintf(err, n, "patch %s: no diff in it (give diffs, git format-patch files"
			 " or an mbox of them)", path);
		return -1;
	}
	all->subject = mmf_xrealloc(all->subject, (all->nr + one.nr) * sizeof(*all->subject));
	memcpy(all->subject + all->nr, one.subject, one.nr * sizeof(*one.subject));
	all->nr += one.nr;
	free(one.subject);
	return 0;
}

static int kernels(struct run *run, char *err, size_t n)
{
	const struct mmf_validate_opts *o = run->o;
	struct stat st;

	/* A patch without a tree to apply it to is refused before any side is built. */
	for (int s = 0; s < MMF_NR_SIDES; s++) {
		/* The tree is the base's (--base TREE --patch P): name it, not a side. */
		errno = 0;
		if (o->side[s].patches[0] && (stat(o->side[s].src, &st) || !S_ISDIR(st.st_mode))) {
			snprintf(err, n, "kernel tree %s: %s (a patch is applied to a tree)",
				 o->side[s].src, errno ? strerror(errno) : "not a directory");
			return -1;
		}
		for (int i = 0; o->side[s].patches[i]; i++)
			if (read_patch(run, o->side[s].patches[i], err, n))
				return -1;
	}
	for (int s = 0; s < MMF_NR_SIDES; s++) {
		const char *src = o->side[s].src;
		struct mmf_vm_guest *g = &run->guest[s];
		char *kernel = NULL, *series = NULL;
		uint64_t t0 = mmf_now_ns();
		int r;

		if (o->side[s].patches[0]) {
			series = write_series(o, o->side[s].patches, &run->r->patches, err, n);
			if (!series)
				return -1;
		}
		if (strcmp(src, "debian") && strcmp(src, "default")) {
			info(o, "%s: kernel from %s%s%s", side_name[s], src, series ? " with " : "",
			     series ? run->r->patches : "");
			kernel = mmf_vm_kernel_of(o->arch, src, series, run->r->kcov_files, err, n);
			free(series);
			if (!kernel)
				return -1;
			info(o, "%s: kernel ready in %.0fs", side_name[s], (mmf_now_ns() - t0) / 1e9);
		}
		*g = (struct mmf_vm_guest){
			.mem_mb = 1024, .cpus = 2, .append = o->side[s].append,
			.guest_args = o->side[s].guest_args,
		};
		r = mmf_vm_guest_setup(g, o->arch->name, kernel ? kernel : src, NULL, &run->im[s],
				       err, n);
		free(kernel);
		if (r)
			return -1;
		run->r->kernel[s] = mmf_xstrdup(run->im[s].kernel);
		info(o, "%s: %s under %s", side_name[s], run->im[s].kernel,
		     mmf_vm_accel_name(g->accel));
	}
	return 0;
}

static int write_verdict(const struct mmf_validate_opts *o, const struct mmf_val_result *r,
			 char *err, size_t n)
{
	static const char *const names[] = { "verdict.txt", "verdict.json" };
	struct strbuf sb[2];
	int rc = 0;

	mmf_sb_init(&sb[0]);
	mmf_sb_init(&sb[1]);
	mmf_val_text(r, &sb[0]);
	mmf_val_json(r, &sb[1]);
	for (int i = 0; i < 2 && !rc; i++) {
		char *path = mmf_xasprintf("%s/%s", o->out, names[i]);

		if (mmf_write_file_atomic(path, sb[i].buf, sb[i].len)) {
			snprintf(err, n, "%s: %s", path, strerror(errno));
			rc = -1;
		}
		free(path);
	}
	if (!rc && o->info)
		fputs(sb[0].buf, stdout);
	mmf_sb_free(&sb[0]);
	mmf_sb_free(&sb[1]);
	return rc;
}

int mmf_validate(const struct mmf_validate_opts *o, char *err, size_t n)
{
	struct mmf_val_result r = { .budget_ms = o->budget_ms, .attempts = o->attempts,
				    .tested_by = o->tested_by };
	struct run run = { .o = o, .r = &r };
	int rc = -1;

	if (mmf_mkdir_p(o->out, 0755)) {
		snprintf(err, n, "output directory %s: %s", o->out, strerror(errno));
		return -1;
	}
	run.t0 = mmf_now_ns();
	if (pick_benches(&run, err, n) || (o->store && store_cases(&run, err, n)) ||
	    (o->corpus && corpus_cases(&run, err, n)))
		goto out;
	run.fuzz_left = o->budget_ms > 0 ? MMF_NR_SIDES : 0;
	/* With fuzzing aimed at a patch, the differential verdict after it. */
	run.nr_phases = 1 + (r.nr_cases > 0) + (run.nr_benches > 0) + run.fuzz_left +
			(run.fuzz_left && compares(o));
	phase(&run, "the kernels");
	if (kernels(&run, err, n))
		goto out;
	if (o->side[MMF_PATCHED].patches[0] && patch_changes(&run, err, n))
		goto out;
	if (run_guests(&run, err, n))
		goto out;
	r.metrics = mmf_xcalloc(run.nr_samples + 1, sizeof(*r.metrics));
	for (int i = 0; i < run.nr_samples; i++) {
		struct samples *s = &run.samples[i];

		for (int side = 0; side < MMF_NR_SIDES; side++)
			mmf_stats_of(s->v[side], s->n[side], &s->m->st[side]);
		r.metrics[r.nr_metrics++] = *s->m;
	}
	if (o->budget_ms > 0 && fuzz_both(&run, err, n))
		goto out;
	mmf_val_judge(&r, o->alpha, o->min_change);
	if (write_verdict(o, &r, err, n))
		goto out;
	rc = r.regressions > 0 ? MMF_EXIT_FOUND : MMF_EXIT_CLEAN;
out:
	for (int i = 0; i < run.nr_samples; i++) {
		free(run.samples[i].m);
		free(run.samples[i].v[0]);
		free(run.samples[i].v[1]);
	}
	for (int s = 0; s < MMF_NR_SIDES; s++)
		mmf_vm_images_free(&run.im[s]);
	free(run.samples);
	free(run.progs);
	free(run.nr_progs);
	free(run.benches);
	free(run.weights);
	mmf_val_free(&r);
	return rc;
}
