// SPDX-License-Identifier: GPL-2.0
/*
 * The report parser against real console logs with the titles syzkaller
 * gives them (tests/data/kernel-reports/, format in SOURCE.md there).
 * Fails unless >= 95% of first titles match exactly and no report is
 * found in any log that has none. Run from the repository root.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "tap.h"
#include "util/util.h"

#define DATA_DIR "tests/data/kernel-reports"
#define MAX_ALT 16

struct expect {
	const char *title;		/* NULL: the log holds no report */
	const char *alt[MAX_ALT];
	int nr_alt;
	const char *type;
	const char *frame;		/* NULL: not checked */
	int corrupted;			/* -1: not given */
	const char *log;
	size_t len;
	const char *report;		/* expected report text, NULL if none */
};

/* Split buf in place into its header fields and the raw log. */
static void parse_test(char *buf, size_t len, struct expect *e)
{
	char *p = buf, *end = buf + len, *rep;

	memset(e, 0, sizeof(*e));
	e->type = "UNKNOWN";
	e->corrupted = -1;
	while (p < end && *p != '\n') {
		char *nl = memchr(p, '\n', end - p);

		if (!nl)
			nl = end;
		*nl = '\0';
		if (!strncmp(p, "TITLE: ", 7) && p[7])
			e->title = p + 7;
		else if (!strncmp(p, "ALT: ", 5) && e->nr_alt < MAX_ALT)
			e->alt[e->nr_alt++] = p + 5;
		else if (!strncmp(p, "TYPE: ", 6))
			e->type = p + 6;
		else if (!strncmp(p, "FRAME: ", 7))
			e->frame = p + 7;
		else if (!strncmp(p, "CORRUPTED: ", 11))
			e->corrupted = p[11] == 'Y';
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

static bool same_alts(const struct expect *e, const struct mmf_report *r)
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

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strtol((*a)->d_name, NULL, 10) - strtol((*b)->d_name, NULL, 10);
}

static void test_report_corpus(void)
{
	int titled = 0, exact = 0, alt = 0, type = 0, framed = 0, frame = 0;
	int corr = 0, corr_ok = 0, clean = 0, clean_ok = 0, texts = 0, texts_ok = 0;
	struct dirent **ents;
	int nents = scandir(DATA_DIR, &ents, NULL, by_name);

	CHECK(nents > 0, "cannot list %s (run from the repository root)", DATA_DIR);
	for (int k = 0; k < nents; k++) {
		const char *name = ents[k]->d_name;
		struct mmf_report *reps;
		struct expect e;
		char *path, *buf;
		size_t len;
		int n;

		if (name[0] < '0' || name[0] > '9') {
			free(ents[k]);
			continue;
		}
		path = xasprintf("%s/%s", DATA_DIR, name);
		buf = read_file(path, &len);
		CHECK(buf, "cannot read %s", path);
		parse_test(buf, len, &e);
		n = mmf_report_parse(e.log, e.len, &reps);
		if (!e.title) {
			clean++;
			if (n == 0)
				clean_ok++;
			else
				printf("FALSE REPORT %s: '%s'\n", name, reps[0].title);
		} else if (n == 0) {
			titled++;
			printf("NO REPORT %s: want '%s'\n", name, e.title);
		} else {
			titled++;
			if (!strcmp(reps[0].title, e.title))
				exact++;
			else
				printf("TITLE %s: got '%s' want '%s'\n", name, reps[0].title,
				       e.title);
			if (same_alts(&e, &reps[0])) {
				alt++;
			} else {
				printf("ALT %s:", name);
				for (int i = 0; i < reps[0].nr_alt; i++)
					printf(" '%s'", reps[0].alt_titles[i]);
				printf(" want");
				for (int i = 0; i < e.nr_alt; i++)
					printf(" '%s'", e.alt[i]);
				printf("\n");
			}
			if (!strcmp(reps[0].type, e.type))
				type++;
			else
				printf("TYPE %s: got %s want %s\n", name, reps[0].type, e.type);
			if (e.frame) {
				framed++;
				if (reps[0].frame && !strcmp(reps[0].frame, e.frame))
					frame++;
				else
					printf("FRAME %s: got %s want %s\n", name,
					       reps[0].frame ? reps[0].frame : "(none)", e.frame);
			}
			if (e.corrupted >= 0 || reps[0].corrupted) {
				bool want = e.corrupted == 1;

				corr++;
				if (reps[0].corrupted == want)
					corr_ok++;
				else
					printf("CORRUPTED %s: got %d want %d\n", name,
					       reps[0].corrupted, want);
			}
		}
		if (e.report && n) {
			texts++;
			if (!strcmp(reps[0].text, e.report))
				texts_ok++;
			else
				printf("TEXT %s differs\n", name);
		}
		mmf_reports_free(reps, n);
		free(buf);
		free(path);
		free(ents[k]);
	}
	free(ents);
	printf("RATE: report titles: %.1f%% exact (%d/%d), alt %d/%d, type %d/%d, frame %d/%d\n",
	       titled ? 100.0 * exact / titled : 0.0, exact, titled, alt, titled, type, titled,
	       frame, framed);
	printf("INFO: corrupted flag %d/%d, report text %d/%d, no report in %d/%d clean logs\n",
	       corr_ok, corr, texts_ok, texts, clean_ok, clean);
	CHECK(titled > 0, "no test data with titles");
	CHECK(exact * 100 >= titled * 95, "exact title match %d/%d is below 95%%", exact, titled);
	CHECK(clean_ok == clean, "%d of %d logs without a report yielded one",
	      clean - clean_ok, clean);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_report_corpus),
};

int main(void)
{
	return tap_run(tests);
}
