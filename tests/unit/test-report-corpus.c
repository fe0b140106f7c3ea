// SPDX-License-Identifier: GPL-2.0
/*
 * The report parser against console logs with the reports they must give
 * (tests/data/kernel-reports/, format in README there): one case per file,
 * which passes only if every field the file gives matches exactly, or, for
 * a file named in known-failures there, only if it still fails. Run from
 * the repository root.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "tap.h"
#include "util/util.h"

#define DATA_DIR "tests/data/kernel-reports"
/* the project's own cases; the numbered files beside it are syzkaller's */
#define OWN_DIR "mmfuzz"
#define MAX_ALT 16
#define MAX_REPS 8

struct expect_rep {
	const char *title;
	const char *alt[MAX_ALT];
	int nr_alt;
	const char *type;
	const char *frame;		/* NULL: not checked, "(none)": no frame */
	bool corrupted;
	const char *start, *end;	/* text of the first and last line, or NULL */
};

struct expect {
	struct expect_rep rep[MAX_REPS];
	int nr_reps;
	const char *log;
	size_t len;
	const char *report;		/* the first report's text, NULL if not given */
};

/* The fields a file's case compares, as bits of a mask of those that differ. */
static const char *const field_names[] = {
	"COUNT", "TITLE", "ALT", "TYPE", "FRAME", "CORRUPTED", "START", "END", "REPORT",
};
enum { COUNT, TITLE, ALT, TYPE, FRAME, CORRUPTED, START, END, REPORT };

struct known_failure {
	char *name, *reason;
	unsigned int fields;
};

static char **files;
static size_t nr_files, next_file, nr_exact;
static struct known_failure *known;
static size_t nr_known;

/* Split buf in place into its header fields and the raw log. */
static void parse_test(const char *name, char *buf, size_t len, struct expect *e)
{
	char *p = buf, *end = buf + len, *rep;
	struct expect_rep *r = NULL;

	memset(e, 0, sizeof(*e));
	while (p < end && *p != '\n') {
		char *nl = memchr(p, '\n', end - p), *v;

		if (!nl)
			nl = end;
		*nl = '\0';
		v = strchr(p, ':');
		v = v && v[1] == ' ' ? v + 2 : "";
		if (!strncmp(p, "TITLE: ", 7) && *v) {
			CHECK(e->nr_reps < MAX_REPS, "%s: more than %d reports", name, MAX_REPS);
			r = &e->rep[e->nr_reps++];
			r->title = v;
			r->type = "UNKNOWN";
		} else if (*p == '#' || !strncmp(p, "TITLE: ", 7) ||
			   !strncmp(p, "PANICKED: ", 10) || !strncmp(p, "EXECUTOR: ", 10)) {
			/* comments, and what mmf_report does not tell */
		} else {
			CHECK(r, "%s: '%s' before any TITLE", name, p);
			if (!strncmp(p, "ALT: ", 5)) {
				CHECK(r->nr_alt < MAX_ALT, "%s: more than %d ALT", name, MAX_ALT);
				r->alt[r->nr_alt++] = v;
			} else if (!strncmp(p, "TYPE: ", 6))
				r->type = v;
			else if (!strncmp(p, "FRAME: ", 7))
				r->frame = v;
			else if (!strcmp(p, "CORRUPTED: Y") || !strcmp(p, "CORRUPTED: N"))
				r->corrupted = *v == 'Y';
			else if (!strncmp(p, "START: ", 7))
				r->start = v;
			else if (!strncmp(p, "END: ", 5))
				r->end = v;
			else
				CHECK(false, "%s: unknown header line '%s'", name, p);
		}
		p = nl + 1;
	}
	if (p < end)
		p++;
	e->log = p;
	e->len = end > p ? (size_t)(end - p) : 0;
	/* the expected report text after the log is not console output */
	rep = memmem(p, e->len, "\n\nREPORT:\n", 10);
	if (rep) {
		e->len = rep + 1 - p;
		rep[1] = '\0';
		e->report = rep + 10;
	}
}

static bool same_alts(const struct expect_rep *e, const struct mmf_report *r)
{
	int found = 0;

	for (int i = 0; i < e->nr_alt; i++)
		for (int j = 0; j < r->nr_alt; j++)
			if (!strcmp(e->alt[i], r->alt_titles[j])) {
				found++;
				break;
			}
	return found == e->nr_alt && r->nr_alt == e->nr_alt;
}

/* Offset of the first line holding text, or of its end (past the newline). */
static size_t line_of(const struct expect *e, const char *text, bool end)
{
	const char *p = memmem(e->log, e->len, text, strlen(text)), *nl;

	if (!p)
		return (size_t)-1;
	if (!end)
		return p - e->log;
	nl = memchr(p, '\n', e->len - (p - e->log));
	return nl ? (size_t)(nl + 1 - e->log) : e->len;
}

/* Print each field of one report that differs; return their mask. */
static unsigned int diff_report(const char *name, int k, const struct expect *e,
		       const struct mmf_report *got)
{
	const struct expect_rep *w = &e->rep[k];
	const char *frame = got->frame ? got->frame : "(none)";
	unsigned int bad = 0;

	if (strcmp(got->title, w->title)) {
		printf("# %s: report %d TITLE '%s', want '%s'\n", name, k, got->title, w->title);
		bad |= 1 << TITLE;
	}
	if (!same_alts(w, got)) {
		printf("# %s: report %d ALT", name, k);
		for (int i = 0; i < got->nr_alt; i++)
			printf(" '%s'", got->alt_titles[i]);
		printf(", want");
		for (int i = 0; i < w->nr_alt; i++)
			printf(" '%s'", w->alt[i]);
		printf("\n");
		bad |= 1 << ALT;
	}
	if (strcmp(got->type, w->type)) {
		printf("# %s: report %d TYPE %s, want %s\n", name, k, got->type, w->type);
		bad |= 1 << TYPE;
	}
	if (w->frame && strcmp(frame, w->frame)) {
		printf("# %s: report %d FRAME %s, want %s\n", name, k, frame, w->frame);
		bad |= 1 << FRAME;
	}
	if (got->corrupted != w->corrupted) {
		printf("# %s: report %d CORRUPTED %c, want %c\n", name, k,
		       got->corrupted ? 'Y' : 'N', w->corrupted ? 'Y' : 'N');
		bad |= 1 << CORRUPTED;
	}
	if (w->start && got->start != line_of(e, w->start, false)) {
		printf("# %s: report %d START at %zu: '%.*s'\n", name, k, got->start,
		       (int)strcspn(e->log + got->start, "\n"), e->log + got->start);
		bad |= 1 << START;
	}
	if (w->end && got->end != line_of(e, w->end, true)) {
		printf("# %s: report %d END at %zu, want %zu\n", name, k, got->end,
		       line_of(e, w->end, true));
		bad |= 1 << END;
	}
	return bad;
}

/*
 * Parse one file's log; print what differs from its header, return the
 * mask. syzkaller's files name the first report only, ours every one.
 */
static unsigned int diff_file(const char *name, struct expect *e)
{
	bool all = !strncmp(name, OWN_DIR "/", strlen(OWN_DIR) + 1);
	struct mmf_report *reps;
	int n = mmf_report_parse(e->log, e->len, &reps);
	unsigned int bad = 0;

	if (!e->nr_reps && n) {
		printf("# %s: a report in a log without one: '%s'\n", name, reps[0].title);
		bad |= 1 << COUNT;
	} else if (n < e->nr_reps || (all && n != e->nr_reps)) {
		printf("# %s: %d reports, want %d\n", name, n, e->nr_reps);
		bad |= 1 << COUNT;
	}
	for (int k = 0; k < n && k < e->nr_reps; k++)
		bad |= diff_report(name, k, e, &reps[k]);
	if (e->report && n && strcmp(reps[0].text, e->report)) {
		const char *got = reps[0].text, *want = e->report;
		size_t i = 0, ls = 0;

		for (; got[i] && got[i] == want[i]; i++)
			if (got[i] == '\n')
				ls = i + 1;
		printf("# %s: report 0 text has '%.*s' where REPORT: has '%.*s'\n", name,
		       (int)strcspn(got + ls, "\n"), got + ls, (int)strcspn(want + ls, "\n"),
		       want + ls);
		bad |= 1 << REPORT;
	}
	mmf_reports_free(reps, n);
	return bad;
}

static const struct known_failure *known_failure(const char *name)
{
	for (size_t i = 0; i < nr_known; i++)
		if (!strcmp(known[i].name, name))
			return &known[i];
	return NULL;
}

/* tap_run calls the cases in order, once each: the n-th call is the n-th file. */
static void test_file(void)
{
	const char *name = files[next_file++];
	const struct known_failure *kf = known_failure(name);
	char *path = mmf_xasprintf("%s/%s", DATA_DIR, name), *buf;
	struct expect e;
	size_t len;
	unsigned int bad;

	buf = mmf_read_file(path, &len);
	free(path);
	CHECK(buf, "cannot read %s", name);
	parse_test(name, buf, len, &e);
	bad = diff_file(name, &e);
	free(buf);
	nr_exact += !bad;
	if (kf)
		printf("# %s: known failure: %s\n", name, kf->reason);
	CHECK(!bad || kf, "%s: fields differ", name);
	CHECK(bad || !kf, "%s passes: remove it from known-failures", name);
	CHECK(!kf || bad == kf->fields, "%s: known-failures lists other fields", name);
}

/* Every line of known-failures names a case, with a reason. */
static void test_known_failures(void)
{
	for (size_t i = 0; i < nr_known; i++) {
		bool found = false;

		for (size_t k = 0; k < nr_files; k++)
			found |= !strcmp(files[k], known[i].name);
		CHECK(found, "known-failures: no case %s", known[i].name);
		CHECK(known[i].fields, "known-failures: %s names no field", known[i].name);
		CHECK(*known[i].reason, "known-failures: %s without a reason", known[i].name);
	}
}

/* The mask of a comma-separated list of field names. */
static unsigned int parse_fields(char *list)
{
	unsigned int mask = 0;
	char *f, *save;

	for (f = strtok_r(list, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		size_t i = 0;

		while (i < ARRAY_SIZE(field_names) && strcmp(f, field_names[i]))
			i++;
		CHECK(i < ARRAY_SIZE(field_names), "known-failures: no field %s", f);
		mask |= 1 << i;
	}
	return mask;
}

/* Lines "NAME FIELD[,FIELD...] reason" and # comments. */
static void read_known_failures(void)
{
	char *buf = mmf_read_file(DATA_DIR "/known-failures", NULL), *line, *save;

	CHECK(buf, "cannot read %s/known-failures (run from the repository root)", DATA_DIR);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct known_failure *kf;
		char *fields, *reason;

		if (*line == '#')
			continue;
		known = mmf_xrealloc(known, (nr_known + 1) * sizeof(*known));
		kf = &known[nr_known++];
		fields = line + strcspn(line, " \t");
		if (*fields)
			*fields++ = '\0';
		fields += strspn(fields, " \t");
		reason = fields + strcspn(fields, " \t");
		if (*reason)
			*reason++ = '\0';
		kf->name = mmf_xstrdup(line);
		kf->fields = parse_fields(fields);
		kf->reason = mmf_xstrdup(reason + strspn(reason, " \t"));
	}
	free(buf);
}

static int by_number(const struct dirent **a, const struct dirent **b)
{
	return strtol((*a)->d_name, NULL, 10) - strtol((*b)->d_name, NULL, 10);
}

static int numbered(const struct dirent *d)
{
	return d->d_name[0] >= '0' && d->d_name[0] <= '9';
}

static int visible(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Append the files of dir (under DATA_DIR) that filter takes, as cases. */
static void add_files(const char *dir, int (*filter)(const struct dirent *),
		      int (*order)(const struct dirent **, const struct dirent **))
{
	char *path = mmf_xasprintf("%s/%s", DATA_DIR, dir);
	struct dirent **ents;
	int n = scandir(path, &ents, filter, order);

	CHECK(n > 0, "cannot list %s (run from the repository root)", path);
	files = mmf_xrealloc(files, (nr_files + n) * sizeof(*files));
	for (int i = 0; i < n; i++) {
		files[nr_files++] = *dir ? mmf_xasprintf("%s/%s", dir, ents[i]->d_name)
					 : mmf_xstrdup(ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	free(path);
}

int main(void)
{
	struct tap_test *tests;
	int ret;

	add_files("", numbered, by_number);
	add_files(OWN_DIR, visible, alphasort);
	read_known_failures();
	tests = mmf_xcalloc(nr_files + 1, sizeof(*tests));
	for (size_t i = 0; i < nr_files; i++)
		tests[i] = (struct tap_test){ files[i], test_file };
	tests[nr_files] = (struct tap_test)TAP_TEST(test_known_failures);
	ret = tap_main(tests, nr_files + 1);
	printf("INFO: report data: %zu of %zu files exact, %zu known failures (%s/known-failures)\n",
	       nr_exact, nr_files, nr_known, DATA_DIR);
	for (size_t i = 0; i < nr_files; i++)
		free(files[i]);
	for (size_t i = 0; i < nr_known; i++) {
		free(known[i].name);
		free(known[i].reason);
	}
	free(files);
	free(known);
	free(tests);
	return ret;
}
