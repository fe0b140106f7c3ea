// SPDX-License-Identifier: GPL-2.0
/*
 * The shadow model against programs with their expected predictions:
 * tests/data/shadow/NAME.mmf, one behaviour each, in the format of
 * tests/data/shadow/README.md (annotations in comments: "# res -EINVAL",
 * "# expect m0[3]: tag 0x11, zero", "# acct ENOMEM", ...). The harness runs
 * the model over a file's program in the executor's order (exec/interp.c:
 * blocks, fork children on their own model, the race rules), feeding each
 * call the result the file gives, and checks every expectation exactly.
 * Each file of tests/data/shadow-bad/ has exactly one wrong expectation,
 * which must be caught: the proof that the harness can fail.
 * Run from the repository root.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/prog.h"
#include "oracle/results.h"
#include "oracle/shadow.h"
#include "oracle/shadow.h"
#include "tap.h"
#include "util/util.h"

#define DATA_DIR	"tests/data/shadow"
#define BAD_DIR		"tests/data/shadow-bad"
#define NONCE		0x5eed42
#define MAX_FILES	256

/* One run of a file: where its statements are, what went wrong. */
struct run {
	const char *path;
	bool bad;			/* from shadow-bad/: one expectation is wrong */
	struct mmf_prog prog;
	int line[MMF_MAX_STMTS];	/* source line of each statement */
	struct mmf_shadow *sh;		/* the main line's model (threads too) */
	struct mmf_shadow *child;	/* a fork block's, while it runs */
	int group_first;		/* first block of the running group, -1 */
	int fork_at;			/* the fork block running, -1 */
	int deferred[MMF_MAX_BLOCKS][2];	/* thread blocks heard later: '{', '}' */
	int nr_deferred;
	int wrong;			/* expectations that do not hold */
	int errors;			/* annotations that do not parse */
	int checks;
};

static void say(struct run *r, int *count, int si, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void say(struct run *r, int *count, int si, const char *fmt, ...)
{
	va_list ap;

	/* What a file of shadow-bad/ must give: not a failure of the run. */
	printf("# %s%s:%d: ", r->bad && count == &r->wrong ? "caught: " : "", r->path,
	       si >= 0 ? r->line[si] : 0);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	(*count)++;
}

#define WRONG(r, si, ...)	say(r, &(r)->wrong, si, __VA_ARGS__)
#define BAD_SYNTAX(r, si, ...)	say(r, &(r)->errors, si, __VA_ARGS__)

/* A cursor over an annotation's text. */
struct cur {
	const char *p;
};

static void ws(struct cur *c)
{
	while (*c->p == ' ' || *c->p == '\t')
		c->p++;
}

static bool word(struct cur *c, const char *w)
{
	size_t n = strlen(w);

	ws(c);
	if (strncmp(c->p, w, n) || (c->p[n] && !strchr(" \t:[,", c->p[n])))
		return false;
	c->p += n;
	return true;
}

static bool lit(struct cur *c, char ch)
{
	ws(c);
	if (*c->p != ch)
		return false;
	c->p++;
	return true;
}

static bool number(struct cur *c, long *v)
{
	char *end;

	ws(c);
	errno = 0;
	*v = strtol(c->p, &end, 0);
	if (end == c->p || errno)
		return false;
	c->p = end;
	return true;
}

static bool at_end(struct cur *c)
{
	ws(c);
	return !*c->p;
}

/* "EINVAL" as its number. */
static bool errno_name(struct cur *c, long *e)
{
	const char *s;
	size_t n;

	ws(c);
	s = c->p;
	while ((*c->p >= 'A' && *c->p <= 'Z') || (*c->p >= '0' && *c->p <= '9'))
		c->p++;
	n = c->p - s;
	for (int i = 1; n && i < 4096; i++) {
		const char *name = strerrorname_np(i);

		if (name && strlen(name) == n && !strncmp(name, s, n)) {
			*e = i;
			return true;
		}
	}
	return false;
}

/* "m3[7]" (an arena page), "f1[2]" (a file page) or "p0[1]" (a pipe
 * entry): the kind letter, the resource number and the index. With last,
 * a range "m3[0..7]" too, or the resource alone ("p0": idx -1).
 */
static bool place(struct cur *c, char *kind, long *res, long *idx, long *last)
{
	ws(c);
	if (!*c->p || !strchr("mfp", *c->p))
		return false;
	*kind = *c->p++;
	if (!number(c, res) || *res < 0)
		return false;
	if (!last)
		return lit(c, '[') && number(c, idx) && lit(c, ']');
	*idx = *last = -1;
	if (!lit(c, '['))
		return true;
	if (!number(c, idx))
		return false;
	*last = *idx;
	if (c->p[0] == '.' && c->p[1] == '.') {
		c->p += 2;
		if (!number(c, last) || *last < *idx)
			return false;
	}
	return lit(c, ']');
}

static int arena_page(long m, long p)
{
	return m * MMF_SLOT_PAGES + p;
}

static bool valid(char kind, long res, long idx)
{
	switch (kind) {
	case 'm':
		return res < MMF_NR_MAPS && idx >= 0 && idx < MMF_SLOT_PAGES;
	case 'f':
		return res < MMF_NR_FILES && idx >= 0;
	default:
		return res < MMF_NR_PIPES && idx >= 0 && idx < MMF_PIPE_PAGES;
	}
}

/*
 * The candidate list of an expectation, for the off-th page of its range:
 * n 0 means "unknown". False when it does not parse.
 */
static bool candidates(const struct run *r, const char *text, char kind, long at, long off,
		       struct mmf_vset *want)
{
	struct cur c = { text };

	want->n = 0;
	if (word(&c, "unknown"))
		return at_end(&c);
	do {
		uint64_t v;
		long tag;

		if (want->n == MMF_VSET_MAX)
			return false;
		if (word(&c, "zero")) {
			v = 0;
		} else if (word(&c, "tag") && number(&c, &tag) && tag >= 0 && tag <= MMF_MAX_TAG) {
			char k = kind;
			long res, idx = at + off;

			if (word(&c, "at")) {
				if (!place(&c, &k, &res, &idx, NULL) || k == 'p' ||
				    !valid(k, res, idx))
					return false;
				idx += off;
				if (k == 'm')
					idx = arena_page(res, idx);
			} else if (kind == 'p') {
				return false;
			}
			v = k == 'm' ? mmf_shadow_word(r->sh, tag, idx) :
				mmf_shadow_file_word(r->sh, tag, idx);
		} else {
			return false;
		}
		want->v[want->n++] = v;
	} while (lit(&c, ','));
	return at_end(&c);
}

static bool in_set(const struct mmf_vset *s, uint64_t v)
{
	for (int i = 0; i < s->n; i++)
		if (s->v[i] == v)
			return true;
	return false;
}

static void print_set(const struct mmf_vset *s, char *buf, size_t len)
{
	int n = snprintf(buf, len, s->n ? "" : "unknown");

	for (int i = 0; i < s->n && n >= 0 && (size_t)n < len; i++)
		n += snprintf(buf + n, len - n, "%s0x%016llx", i ? ", " : "",
			      (unsigned long long)s->v[i]);
}

/* What the model says of page idx of kind (m: arena, f: file res, p: pipe). */
static void predicted(const struct mmf_shadow *sh, char kind, long res, long idx,
		      struct mmf_vset *got)
{
	const struct mmf_pipe *pp = kind == 'p' ? &sh->pins.pipes[res] : NULL;
	bool known = true;

	if (kind == 'm')
		known = mmf_shadow_expect(sh, idx, got);
	else if (kind == 'f')
		known = mmf_shadow_expect_file(sh, res, idx, got);
	else
		*got = pp->e[(pp->head + idx) % MMF_PIPE_PAGES].v;
	if (!known)
		got->n = 0;
}

/* "p0: 2 pages": how many pages pipe res holds. */
static void expect_pipe_pages(struct run *r, const struct mmf_shadow *sh, int si, long res,
			      struct cur *c)
{
	long pages;

	if (!number(c, &pages) || !(word(c, "pages") || word(c, "page")) || !at_end(c)) {
		BAD_SYNTAX(r, si, "expect pN: want 'N pages'");
		return;
	}
	r->checks++;
	if (sh->pins.pipes[res].nr != pages)
		WRONG(r, si, "p%ld holds %d pages, want %ld", res, sh->pins.pipes[res].nr, pages);
}

static void expect_pages(struct run *r, const struct mmf_shadow *sh, int si, const char *text)
{
	struct cur c = { text };
	long res, first, last;
	char kind;

	if (!place(&c, &kind, &res, &first, &last) || !lit(&c, ':')) {
		BAD_SYNTAX(r, si, "expect: want X[P] or X[P..Q] then ':' in '%s'", text);
		return;
	}
	if (kind == 'p' && first < 0 && valid(kind, res, 0)) {
		expect_pipe_pages(r, sh, si, res, &c);
		return;
	}
	if (!valid(kind, res, first) || !valid(kind, res, last)) {
		BAD_SYNTAX(r, si, "expect: no such place '%s'", text);
		return;
	}
	for (long i = first; i <= last; i++) {
		long at = kind == 'm' ? arena_page(res, first) : first;
		struct mmf_vset want, got;
		char w[160], g[160];
		bool ok;

		if (!candidates(r, c.p, kind, at, i - first, &want)) {
			BAD_SYNTAX(r, si, "expect: bad candidates '%s'", c.p);
			return;
		}
		r->checks++;
		if (kind == 'p' && i >= sh->pins.pipes[res].nr) {
			WRONG(r, si, "p%ld has no page %ld", res, i);
			continue;
		}
		predicted(sh, kind, res, at + i - first, &got);
		ok = got.n == want.n;
		for (int k = 0; ok && k < want.n; k++)
			ok = in_set(&got, want.v[k]) && in_set(&want, got.v[k]);
		if (ok)
			continue;
		print_set(&want, w, sizeof(w));
		print_set(&got, g, sizeof(g));
		WRONG(r, si, "%c%ld[%ld]: predicted %s, want %s", kind, res, i, g, w);
	}
}

static void expect_one(struct run *r, const struct mmf_shadow *sh, int si, const char *text)
{
	struct cur c = { text };
	long want;

	if (word(&c, "locked")) {
		long got = mmf_shadow_locked_pages(sh);

		if (word(&c, "unknown"))
			want = -1;
		else if (!number(&c, &want) || want < 0)
			want = -2;
		if (want == -2 || !at_end(&c)) {
			BAD_SYNTAX(r, si, "expect locked: a count or 'unknown'");
			return;
		}
		r->checks++;
		if (got != want)
			WRONG(r, si, "locked pages %ld, want %ld (-1: unknown)", got, want);
		return;
	}
	expect_pages(r, sh, si, text);
}

/* The result of the call at si: its "# res", else its default. */
static long result_of(struct run *r, int si)
{
	const struct mmf_stmt *s = &r->prog.stmts[si];
	int idx, n;

	for (int i = si + 1; i < r->prog.nr && r->prog.stmts[i].id == MMF_COMMENT; i++) {
		struct cur c = { r->prog.text + r->prog.stmts[i].comment };
		const char *val;
		long v, m, p;
		char kind;

		if (!word(&c, "res"))
			continue;
		ws(&c);
		val = c.p;
		if (lit(&c, '-') && errno_name(&c, &v) && at_end(&c))
			return -v;
		c.p = val;
		if (place(&c, &kind, &m, &p, NULL) && kind == 'm' && valid(kind, m, p) &&
		    at_end(&c))
			return arena_page(m, p);
		c.p = val;
		if (number(&c, &v) && at_end(&c))
			return v;
		BAD_SYNTAX(r, i, "res: a number, -ERRNO or mN[P]");
		return 0;
	}
	if (mmf_calls[s->id].flags & (MMF_CALL_MOVES | MMF_CALL_RANGE2))
		BAD_SYNTAX(r, si, "a call on a second range needs its '# res'");
	return mmf_stmt_range(s, &idx, &n) ? n : 0;
}

/* The "# acct" of the call at si, judged on sh before the call runs. */
static void check_acct(struct run *r, const struct mmf_shadow *sh, int si)
{
	for (int i = si + 1; i < r->prog.nr && r->prog.stmts[i].id == MMF_COMMENT; i++) {
		struct cur c = { r->prog.text + r->prog.stmts[i].comment };
		const char *why = NULL;
		long want = 0;
		int got;

		if (!word(&c, "acct"))
			continue;
		if (!word(&c, "none") && !errno_name(&c, &want)) {
			BAD_SYNTAX(r, i, "acct: an errno name or 'none'");
			return;
		}
		if (!at_end(&c)) {
			BAD_SYNTAX(r, i, "acct: trailing text");
			return;
		}
		got = mmf_results_errno(sh, &r->prog.stmts[si], &why);
		r->checks++;
		if (got != want)
			WRONG(r, i, "accounting expects %s, want %s",
			      got ? strerrorname_np(got) : "none",
			      want ? strerrorname_np(want) : "none");
	}
}

/* The model a statement of the running block (or the main line) acts on. */
static struct mmf_shadow *model(struct run *r)
{
	return r->child ? r->child : r->sh;
}

static void hear_deferred(struct run *r);

/* Check the expectations after statement si (-1: before the first); a
 * "# resume" among them hears the deferred blocks there.
 */
static void check_after(struct run *r, int si)
{
	for (int i = si + 1; i < r->prog.nr && r->prog.stmts[i].id == MMF_COMMENT; i++) {
		struct cur c = { r->prog.text + r->prog.stmts[i].comment };

		const struct mmf_stmt *s = si >= 0 ? &r->prog.stmts[si] : NULL;

		if (word(&c, "expect")) {
			expect_one(r, model(r), i, c.p);
		} else if (word(&c, "resume")) {
			/* In a fork block the calls would go to the child's model. */
			if (r->child || !at_end(&c))
				BAD_SYNTAX(r, i, "resume: alone, on the main line or a thread");
			else
				hear_deferred(r);
		} else if (word(&c, "defer")) {
			if (!s || s->id != MMF_THREAD)
				BAD_SYNTAX(r, i, "defer: only right after 'thread {'");
		} else if (word(&c, "res") || word(&c, "acct")) {
			if (!s || mmf_calls[s->id].block != MMF_BLOCK_NONE)
				BAD_SYNTAX(r, i, "res, acct: only after a call");
		} else if (!strncmp(c.p, "exp", 3)) {
			BAD_SYNTAX(r, i, "not an expectation: '%s'", c.p);
		}
	}
}

static bool has_note(const struct run *r, int si, const char *w)
{
	for (int i = si + 1; i < r->prog.nr && r->prog.stmts[i].id == MMF_COMMENT; i++) {
		struct cur c = { r->prog.text + r->prog.stmts[i].comment };

		if (word(&c, w) && at_end(&c))
			return true;
	}
	return false;
}

static void call(struct run *r, int si)
{
	const struct mmf_stmt *s = &r->prog.stmts[si];

	check_acct(r, model(r), si);
	mmf_shadow_apply(model(r), s, si, result_of(r, si));
	check_after(r, si);
}

/*
 * A thread block whose first annotation is "# defer" is heard by the model
 * (its calls applied, its expectations checked) when the main line reaches
 * a "# resume", or at the join: the order in which a racing executor may
 * learn of calls is not the order of the text.
 */
static void hear_deferred(struct run *r)
{
	int nr = r->nr_deferred;

	/* Each block once, even if one says "resume" itself. */
	r->nr_deferred = 0;
	for (int d = 0; d < nr; d++) {
		for (int i = r->deferred[d][0] + 1; i < r->deferred[d][1]; i++)
			if (r->prog.stmts[i].id != MMF_COMMENT)
				call(r, i);
	}
}

/* A fork child's model: a deep copy of the parent's, then the fork rule. */
static struct mmf_shadow *fork_model(const struct mmf_shadow *sh)
{
	struct mmf_shadow *c = mmf_xmalloc(sizeof(*c));

	*c = *sh;
	for (int o = 0; o < MMF_SHADOW_OBJS; o++) {
		size_t len = sh->objs[o].npages * sizeof(struct mmf_vset);

		if (!sh->objs[o].pages)
			continue;
		c->objs[o].pages = mmf_xmalloc(len);
		memcpy(c->objs[o].pages, sh->objs[o].pages, len);
	}
	mmf_shadow_fork_child(c);
	return c;
}

static void end_group(struct run *r)
{
	hear_deferred(r);
	if (r->group_first >= 0)
		mmf_shadow_group_end(r->sh);
	r->group_first = -1;
}

/* The executor's order (exec/interp.c run_main): blocks, forks, joins. */
static void run_prog(struct run *r)
{
	const struct mmf_prog *p = &r->prog;
	bool in_deferred = false;

	check_after(r, -1);
	for (int i = 0; i < p->nr; i++) {
		const struct mmf_stmt *s = &p->stmts[i];

		if (s->id == MMF_COMMENT)
			continue;
		switch (mmf_calls[s->id].block) {
		case MMF_BLOCK_FORK:
		case MMF_BLOCK_THREAD:
			if (r->group_first < 0) {
				int join = i;

				while (join < p->nr && p->stmts[join].id != MMF_JOIN)
					join++;
				r->group_first = i;
				mmf_shadow_group_begin(r->sh, p, i, join);
			}
			if (s->id == MMF_FORK) {
				r->fork_at = i;
				r->child = fork_model(r->sh);
				mmf_shadow_child_of(r->child, p, r->group_first, i);
			} else if (has_note(r, i, "defer")) {
				r->deferred[r->nr_deferred][0] = i;
				in_deferred = true;
			}
			check_after(r, i);
			break;
		case MMF_BLOCK_END:
			if (r->child) {
				mmf_shadow_delete(r->child);
				r->child = NULL;
				mmf_shadow_forked(r->sh, p, r->group_first, r->fork_at);
			}
			if (in_deferred)
				r->deferred[r->nr_deferred++][1] = i;
			in_deferred = false;
			check_after(r, i);
			break;
		case MMF_BLOCK_JOIN:
			end_group(r);
			check_after(r, i);
			break;
		default:
			if (in_deferred)
				break;
			call(r, i);
		}
	}
	end_group(r);
}

/* Source line of each statement: the parser's rule for blank lines. */
static void map_lines(struct run *r, const char *text)
{
	int line = 0, si = 0;

	for (const char *l = text; *l && si < MMF_MAX_STMTS; ) {
		const char *nl = strchr(l, '\n'), *end = nl ? nl : l + strlen(l);
		const char *q = l;

		line++;
		while (q < end && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		if (q < end)
			r->line[si++] = line;
		l = nl ? nl + 1 : end;
	}
}

/* Run the file at path; false if it does not parse. */
static bool run_file(struct run *r, const char *path, bool bad)
{
	char err[200];
	char *text = mmf_read_file(path, NULL);

	memset(r, 0, sizeof(*r));
	r->path = path;
	r->bad = bad;
	r->group_first = r->fork_at = -1;
	if (!text) {
		printf("# %s: %s\n", path, strerror(errno));
		return false;
	}
	if (mmf_prog_parse(text, &r->prog, err, sizeof(err))) {
		printf("# %s: %s\n", path, err);
		free(text);
		return false;
	}
	map_lines(r, text);
	free(text);
	r->sh = mmf_shadow_new(NONCE);
	run_prog(r);
	mmf_shadow_delete(r->sh);
	if (!r->checks)
		BAD_SYNTAX(r, -1, "no expectation");
	return true;
}

static char *files[MAX_FILES];
static int nr_files, nr_bad, next_case;

static void test_file(void)
{
	int f = next_case++;
	bool bad = f >= nr_files - nr_bad;
	struct run *r = mmf_xmalloc(sizeof(*r));
	bool parsed = run_file(r, files[f], bad);
	int wrong = r->wrong, errors = r->errors, checks = r->checks;

	free(r);
	CHECK(parsed, "%s does not parse", files[f]);
	CHECK(!errors, "%s: %d annotations do not parse", files[f], errors);
	if (bad)
		CHECK(wrong == 1, "%s: %d of %d checks failed, want exactly 1 (its wrong one)",
		      files[f], wrong, checks);
	else
		CHECK(!wrong, "%s: %d of %d checks failed", files[f], wrong, checks);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int first = nr_files;

	CHECK(d, "%s: %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n < 5 || strcmp(e->d_name + n - 4, ".mmf"))
			continue;
		CHECK(nr_files < MAX_FILES, "more than %d files", MAX_FILES);
		files[nr_files++] = mmf_xasprintf("%s/%s", dir, e->d_name);
	}
	closedir(d);
	qsort(files + first, nr_files - first, sizeof(*files), by_name);
	return nr_files - first;
}

int main(void)
{
	struct tap_test *tests;
	int rc;

	CHECK(list(DATA_DIR) > 0, "no files in " DATA_DIR);
	nr_bad = list(BAD_DIR);
	CHECK(nr_bad > 0, "no files in " BAD_DIR ": nothing shows the harness can fail");
	tests = mmf_xcalloc(nr_files, sizeof(*tests));
	for (int f = 0; f < nr_files; f++)
		tests[f] = (struct tap_test){ files[f], test_file };
	rc = tap_main(tests, nr_files);
	for (int f = 0; f < nr_files; f++)
		free(files[f]);
	free(tests);
	return rc;
}
