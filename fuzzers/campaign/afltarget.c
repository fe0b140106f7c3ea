// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "campaign/afl.h"
#include "campaign/afltarget.h"
#include "campaign/seeds.h"
#include "store/store.h"
#include "util/u64set.h"
#include "util/util.h"

/* AFL++'s fork server descriptors: its commands come on 198, we answer on 199. */
#define FORKSRV_CTL	198
#define FORKSRV_ST	199
#define MAP_SIZE	MMF_GUEST_COVER_EDGES
#define SAMPLE_MS	5000

/*
 * Programs of the guest's boot kept with a report beside the one that ran
 * when it came: a report of an mm's end (Bad rss-counter state) arrives
 * once the mm is dropped, while the next program runs.
 */
#define PREV_PROGS	4

struct target {
	const struct mmf_afl_target_opts *o;
	struct mmf_guest_repro *g;
	struct mmf_guest_cover cov;
	struct strbuf prev[PREV_PROGS];	/* the boot's last programs, oldest first */
	int nr_prev;
	uint8_t *map;
	uint8_t seen_edges[MAP_SIZE];
	size_t nr_edges;
	struct mmf_u64set pcs;	/* every PC the guest reached */
	FILE *pcs_file, *samples, *weighted;
	uint64_t t0, last_sample, execs, crashes, repeats;
	int reached;		/* programs kept under DIR/reached/ */
	uint64_t run_ns, request_ns;	/* in the guest, and host to host */
	uint64_t user_ns, sys_ns;	/* the programs' CPU time in the guest */
	uint64_t phase_ns[MMF_SERVE_PHASES];	/* where the runs went */
	/* The last input, whose map AFL++'s calibration asks for again. */
	char *last;
	size_t last_len;
	bool last_ok;
};

static int fs_read(uint32_t *v)
{
	ssize_t r;

	while ((r = read(FORKSRV_CTL, v, 4)) < 0 && errno == EINTR)
		;
	return r == 4 ? 0 : -1;
}

static int fs_write(uint32_t v)
{
	return mmf_write_all(FORKSRV_ST, &v, 4);
}

/*
 * The edges of a program, kept by its hash under DIR/edges/ for 'mmfuzz
 * corpus minimize': the queue's inputs need not run again to be chosen.
 */
static void keep_edges(struct target *t, const struct mmf_prog *p)
{
	char *path = mmf_xasprintf("%s/edges/%016llx", t->o->cover,
				   (unsigned long long)mmf_prog_hash(p));
	struct strbuf sb;

	mmf_sb_init(&sb);
	for (int e = 0; e < MAP_SIZE; e++)
		if (t->cov.edges[e])
			mmf_sb_printf(&sb, "%x\n", e);
	if (mmf_write_file_new(path, sb.buf ? sb.buf : "", sb.len) && errno != EEXIST)
		mmf_warnx_("afl-target: %s: %s", path, strerror(errno));
	mmf_sb_free(&sb);
	free(path);
}

/* The map entry k of a PC of weight > k: spread over the map like edges. */
static uint32_t weight_entry(uint64_t pc, unsigned int k)
{
	uint64_t x = pc + k * 0x9e3779b97f4a7c15ull;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return (x ^ (x >> 31)) & (MAP_SIZE - 1);
}

/*
 * A program that reached what the weights call changed (a patch's
 * functions), kept by its hash under DIR/reached/ (at most REACHED_MAX):
 * mmfuzz validate runs these on both kernels to compare what they do.
 */
#define REACHED_MAX	256

static void keep_reached(struct target *t, const struct mmf_prog *p)
{
	char *dir = mmf_xasprintf("%s/reached", t->o->cover), *path;
	struct strbuf sb;

	if (t->reached >= REACHED_MAX || (mkdir(dir, 0755) && errno != EEXIST)) {
		free(dir);
		return;
	}
	path = mmf_xasprintf("%s/%016llx.mmf", dir, (unsigned long long)mmf_prog_hash(p));
	mmf_sb_init(&sb);
	mmf_prog_print(p, &sb);
	if (!mmf_write_file_new(path, sb.buf, sb.len))
		t->reached++;
	mmf_sb_free(&sb);
	free(path);
	free(dir);
}

/* Whether the run reached a PC the weights call changed. */
static bool reached_changed(const struct target *t)
{
	for (size_t i = 0; i < t->cov.nr_pcs; i++)
		if (mmf_focus_weight(t->o->weights, t->cov.pcs[i]) >= MMF_WEIGHT_CHANGED)
			return true;
	return false;
}

static void take_weights(struct target *t)
{
	bool any = false;

	for (size_t i = 0; i < t->cov.nr_pcs; i++) {
		uint64_t pc = t->cov.pcs[i];
		unsigned int w = mmf_focus_weight(t->o->weights, pc);

		if (w < 2)
			continue;
		for (unsigned int k = 1; k < w; k++) {
			uint32_t e = weight_entry(pc, k);

			if (t->map[e] != 0xff)
				t->map[e]++;
		}
		if (t->weighted)
			fprintf(t->weighted, "%s0x%" PRIx64, any ? " " : "", pc);
		any = true;
	}
	if (any && t->weighted) {
		fputc('\n', t->weighted);
		fflush(t->weighted);
	}
}

static void take_coverage(struct target *t)
{
	memcpy(t->map, t->cov.edges, MAP_SIZE);
	if (t->o->weights)
		take_weights(t);
	for (int e = 0; e < MAP_SIZE; e++)
		if (t->cov.edges[e] && !t->seen_edges[e]) {
			t->seen_edges[e] = 1;
			t->nr_edges++;
		}
	for (size_t i = 0; i < t->cov.nr_pcs; i++)
		if (mmf_u64set_add(&t->pcs, t->cov.pcs[i]) && t->pcs_file)
			fprintf(t->pcs_file, "0x%" PRIx64 "\n", t->cov.pcs[i]);
	if (t->pcs_file)
		fflush(t->pcs_file);
}

static double per_exec(const struct target *t, uint64_t ns)
{
	return t->execs ? ns / 1e6 / t->execs : 0;
}

static void sample(struct target *t, bool force)
{
	uint64_t now = mmf_now_ns();

	if (!t->samples || (!force && now - t->last_sample < SAMPLE_MS * 1000000ull))
		return;
	t->last_sample = now;
	fprintf(t->samples, "{\"t\":%.1f,\"execs\":%" PRIu64 ",\"repeats\":%" PRIu64
		",\"pcs\":%zu,\"edges\":%zu,\"crashes\":%" PRIu64 ",\"boots\":%d,"
		"\"run_ms\":%.0f,\"user_ms\":%.0f,\"sys_ms\":%.0f,\"request_ms\":%.0f,"
		"\"phase_ms\":[%.0f,%.0f,%.0f,%.0f,%.0f,%.0f]}\n",
		(now - t->t0) / 1e9, t->execs, t->repeats, t->pcs.nr, t->nr_edges, t->crashes,
		mmf_guest_repro_boots(t->g), per_exec(t, t->run_ns), per_exec(t, t->user_ns),
		per_exec(t, t->sys_ns), per_exec(t, t->request_ns), per_exec(t, t->phase_ns[0]),
		per_exec(t, t->phase_ns[1]), per_exec(t, t->phase_ns[2]), per_exec(t, t->phase_ns[3]),
		per_exec(t, t->phase_ns[4]), per_exec(t, t->phase_ns[5]));
	fflush(t->samples);
}

/*
 * The findings of a run into the store: true if it is a crash to AFL++.
 * hooked: the self-test's program ran in place of the input.
 */
static bool save_findings(struct target *t, const struct mmf_prog *p, bool hooked)
{
	const struct mmf_guest_cover *c = &t->cov;
	bool dead = !strcmp(c->outcome, "died") || !strcmp(c->outcome, "hung");
	struct mmf_store_added res;
	struct strbuf prog;
	char *origin, *first = NULL;

	if (!c->nr_reports && !dead)
		return false;
	origin = hooked ? mmf_xstrdup("fuzzer") : mmf_seed_origin(t->o->seeds, t->last, t->last_len);
	mmf_sb_init(&prog);
	for (int k = 0; k < t->nr_prev; k++)
		mmf_sb_printf(&prog, MMF_PROG_EXEC_MARK "\n%s", t->prev[k].buf);
	if (t->nr_prev)
		mmf_sb_puts(&prog, MMF_PROG_EXEC_MARK "\n");
	mmf_prog_print(p, &prog);
	for (int i = 0; i < c->nr_reports || (i == 0 && dead); i++) {
		struct mmf_crash cr = {
			.title = i < c->nr_reports ? c->rep[i].title : mmf_guest_silent_title(c->outcome),
			.report = i < c->nr_reports ? c->rep[i].body : NULL,
			.log = c->console.len ? c->console.buf : NULL,
			.progs = prog.buf, .kernel = t->o->kernel_name,
			.arch = t->o->go.guest.arch->name,
			.origin = origin,
			/* one run's reports are one bug: the first's (store.h) */
			.related = first,
		};

		if (mmf_store_add(t->o->store, &cr, &res)) {
			mmf_warnx_("afl-target: cannot save '%s': %s", cr.title, mmf_store_err());
			continue;
		}
		fprintf(stderr, "mmfuzz: afl-target: %s: %s (%s/%s)\n",
			res.new_bug ? "new" : res.related ? "related" : "known", cr.title,
			t->o->store, res.name);
		if (!first)
			first = mmf_xstrdup(res.title);
	}
	free(first);
	mmf_sb_free(&prog);
	free(origin);
	t->crashes++;
	return true;
}

/* p ran on the guest's boot; a report ends the boot (the next run boots anew). */
static void remember(struct target *t, const struct mmf_prog *p, bool crash)
{
	struct strbuf oldest;

	if (crash) {
		t->nr_prev = 0;
		return;
	}
	if (t->nr_prev == PREV_PROGS) {
		oldest = t->prev[0];
		memmove(t->prev, t->prev + 1, (PREV_PROGS - 1) * sizeof(t->prev[0]));
		t->prev[PREV_PROGS - 1] = oldest;
		t->nr_prev--;
	}
	t->prev[t->nr_prev].len = 0;
	mmf_prog_print(p, &t->prev[t->nr_prev++]);
}

/*
 * The self-test's program, in place of the input: a write the guest
 * answers with LKDTM. Appended to the input, it was lost when the input
 * was full or ended before it.
 */
static void selftest_prog(struct mmf_prog *p)
{
	char err[256];

	if (mmf_prog_parse("m7 = mmap(0, 16, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
			   "write(m7, 0, 16, " MMF_AFL_SELFTEST_TAG ")\n", p, err, sizeof(err)))
		mmf_warnx_("afl-target: self-test program: %s", err);
}

/* One input: run it, fill the map, say whether it crashed. */
static int run_input(struct target *t, bool *crash)
{
	struct mmf_prog p;
	size_t len = 0;
	char *data = mmf_read_file(t->o->input, &len);
	uint64_t t0;
	bool hooked;

	if (!data)
		return -1;
	/*
	 * Calibration runs an input several times in a row: its coverage
	 * varies with reclaim's timing, and every run is seconds under TCG.
	 * The first run's map serves them: AFL++ sees a stable input.
	 */
	if (t->last_ok && len == t->last_len && !memcmp(data, t->last, len)) {
		free(data);
		memcpy(t->map, t->cov.edges, MAP_SIZE);
		t->repeats++;
		*crash = false;
		return 0;
	}
	mmf_prog_decode((const uint8_t *)data, len, &p);
	free(t->last);
	t->last = data;
	t->last_len = len;
	t->last_ok = false;
	hooked = t->o->selftest_exec && t->execs + 1 == (uint64_t)t->o->selftest_exec;
	if (hooked) {
		fprintf(stderr, "mmfuzz: afl-target: test hook: execution %d provokes LKDTM\n",
			t->o->selftest_exec);
		selftest_prog(&p);
	}
	t0 = mmf_now_ns();
	if (mmf_guest_repro_cover(t->g, &p, &t->cov))
		return -1;
	t->request_ns += mmf_now_ns() - t0;
	t->run_ns += t->cov.run_ns;
	t->user_ns += t->cov.user_ns;
	t->sys_ns += t->cov.sys_ns;
	for (int i = 0; i < MMF_SERVE_PHASES; i++)
		t->phase_ns[i] += t->cov.phase_ns[i];
	t->execs++;
	take_coverage(t);
	if (t->o->cover && strcmp(t->cov.outcome, "failed"))
		keep_edges(t, &p);
	if (t->o->cover && t->o->weights && reached_changed(t))
		keep_reached(t, &p);
	*crash = save_findings(t, &p, hooked);
	remember(t, &p, *crash);
	t->last_ok = !*crash;
	sample(t, false);
	return 0;
}

static FILE *cover_file(const char *dir, const char *name)
{
	char *path = mmf_xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "a");

	free(path);
	return f;
}

static int serve(struct target *t, char *err, size_t n)
{
	uint32_t timed_out;

	if (fs_write(0)) {
		snprintf(err, n, "the fork server's status pipe is gone");
		return -1;
	}
	while (!fs_read(&timed_out)) {
		int fds[2], st = 0, r;
		bool crash = false;
		pid_t pid;

		if (pipe2(fds, O_CLOEXEC)) {
			snprintf(err, n, "pipe: %s", strerror(errno));
			return -1;
		}
		pid = fork();
		if (pid == 0) {
			char ch;

			close(fds[1]);
			while (read(fds[0], &ch, 1) < 0 && errno == EINTR)
				;
			_exit(0);
		}
		close(fds[0]);
		if (pid < 0 || fs_write(pid)) {
			snprintf(err, n, "cannot start a placeholder: %s", strerror(errno));
			return -1;
		}
		r = run_input(t, &crash);
		if (crash)
			kill(pid, SIGUSR2);
		close(fds[1]);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		if (r) {
			snprintf(err, n, "%s", mmf_guest_repro_boots(t->g) ?
				 "the guest no longer boots" : "cannot read the input");
			return -1;
		}
		if (!strcmp(t->cov.outcome, "failed") && !t->execs) {
			snprintf(err, n, "the guest cannot run programs (see %s)", t->o->go.workdir);
			return -1;
		}
		if (fs_write(st))
			break;
	}
	return 0;
}

int mmf_afl_target_check(char *err, size_t n)
{
	if (!getenv("__AFL_SHM_ID") || fcntl(FORKSRV_CTL, F_GETFD) < 0 ||
	    fcntl(FORKSRV_ST, F_GETFD) < 0) {
		snprintf(err, n, "not started by afl-fuzz (no __AFL_SHM_ID or fork server pipes)");
		return -1;
	}
	return 0;
}

int mmf_afl_target(const struct mmf_afl_target_opts *o, char *err, size_t n)
{
	const char *shm = getenv("__AFL_SHM_ID");
	struct target *t;
	int r = -1;

	if (mmf_afl_target_check(err, n))
		return -1;
	t = mmf_xcalloc(1, sizeof(*t));
	t->o = o;
	t->map = shmat(atoi(shm), NULL, 0);
	if (t->map == (void *)-1) {
		snprintf(err, n, "cannot attach AFL++'s map %s: %s", shm, strerror(errno));
		free(t);
		return -1;
	}
	if (o->cover && !mmf_mkdir_p(o->cover, 0755)) {
		char *edges = mmf_xasprintf("%s/edges", o->cover);

		if (mmf_mkdir_p(edges, 0755))
			mmf_warnx_("afl-target: %s: %s", edges, strerror(errno));
		free(edges);
		t->pcs_file = cover_file(o->cover, "pcs");
		t->samples = cover_file(o->cover, "cover.jsonl");
		if (o->weights)
			t->weighted = cover_file(o->cover, "weighted");
	}
	mmf_guest_cover_init(&t->cov);
	t->g = mmf_guest_repro_new(&o->go);
	t->t0 = t->last_sample = mmf_now_ns();
	/* Booted before the handshake: AFL++'s first run is then a run. */
	if (mmf_guest_repro_start(t->g))
		snprintf(err, n, "no guest booted (consoles in %s)", o->go.workdir);
	else
		r = serve(t, err, n);
	sample(t, true);
	mmf_guest_repro_free(t->g);
	mmf_guest_cover_free(&t->cov);
	if (t->pcs_file)
		fclose(t->pcs_file);
	if (t->samples)
		fclose(t->samples);
	if (t->weighted)
		fclose(t->weighted);
	mmf_u64set_free(&t->pcs);
	free(t->last);
	for (int k = 0; k < PREV_PROGS; k++)
		mmf_sb_free(&t->prev[k]);
	shmdt(t->map);
	free(t);
	return r;
}
