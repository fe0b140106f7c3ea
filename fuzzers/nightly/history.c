// SPDX-License-Identifier: GPL-2.0
/* The nights of a nightly store, and each bug's history over them. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nightly/internal.h"
#include "util/util.h"

char *mmf_night_value(const char *text, const char *key)
{
	size_t k = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, k) && p[k] == ':' && p[k + 1] == ' ')
			return strndup(p + k + 2, strcspn(p + k + 2, "\n"));
	return NULL;
}

static double num(const char *text, const char *key)
{
	char *v = mmf_night_value(text, key);
	double d = v ? strtod(v, NULL) : 0;

	free(v);
	return d;
}

static char *str(const char *text, const char *key)
{
	char *v = mmf_night_value(text, key);

	return v ? v : mmf_xstrdup("");
}

void mmf_night_free(struct mmf_night *nt)
{
	free(nt->id);
	free(nt->kernel);
	free(nt->commit);
	free(nt->config);
	free(nt->arch);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static struct mmf_bug_history *bug_of(struct mmf_history *h, const char *title)
{
	for (int i = 0; i < h->nr_bugs; i++)
		if (!strcmp(h->bugs[i].title, title))
			return &h->bugs[i];
	h->bugs = mmf_xrealloc(h->bugs, (h->nr_bugs + 1) * sizeof(*h->bugs));
	h->bugs[h->nr_bugs] = (struct mmf_bug_history){ .title = mmf_xstrdup(title) };
	return &h->bugs[h->nr_bugs++];
}

/* Night k's bugs file into the bugs' histories; last[] is the night each was last seen. */
static void add_bugs(struct mmf_history *h, int k, const char *text, int **last,
		     bool **new_last)
{
	char *copy = mmf_xstrdup(text ? text : ""), *line, *save;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		long count;
		int is_new, off = 0;
		struct mmf_bug_history *b;
		int i;

		if (sscanf(line, "%ld\t%d\t%n", &count, &is_new, &off) != 2 || !off)
			continue;
		b = bug_of(h, line + off);
		i = b - h->bugs;
		*last = mmf_xrealloc(*last, h->nr_bugs * sizeof(**last));
		*new_last = mmf_xrealloc(*new_last, h->nr_bugs * sizeof(**new_last));
		if (!b->nights)
			b->first = h->nights[k].id;
		b->nights++;
		b->count += count;
		b->last = h->nights[k].id;
		(*last)[i] = k;
		(*new_last)[i] = is_new;
	}
	free(copy);
}

/* Newest last seen first, then the most frequent. */
static int by_last(const void *a, const void *b)
{
	const struct mmf_bug_history *x = a, *y = b;
	int c = strcmp(y->last, x->last);

	return c ? c : (y->count > x->count) - (y->count < x->count);
}

int mmf_history_load(const char *store, int fixed_after, struct mmf_history *h, char *err,
		     size_t n)
{
	char *dir = mmf_xasprintf("%s/nights", store), **names = NULL;
	DIR *d = opendir(dir);
	struct dirent *e;
	int nr = 0, *last = NULL;
	bool *new_last = NULL;

	memset(h, 0, sizeof(*h));
	if (!d && errno != ENOENT) {
		snprintf(err, n, "%s: %s", dir, strerror(errno));
		free(dir);
		return -1;
	}
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names = mmf_xrealloc(names, (nr + 1) * sizeof(*names));
		names[nr++] = mmf_xstrdup(e->d_name);
	}
	if (d)
		closedir(d);
	if (nr)
		qsort(names, nr, sizeof(*names), by_name);
	h->nights = mmf_xcalloc(nr + 1, sizeof(*h->nights));
	for (int i = 0; i < nr; i++) {
		char *path = mmf_xasprintf("%s/%s/night", dir, names[i]);
		char *text = mmf_read_file(path, NULL), *bugs;
		struct mmf_night *nt = &h->nights[h->nr_nights];

		free(path);
		if (!text)
			continue;	/* a night killed before its record */
		*nt = (struct mmf_night){
			.id = mmf_xstrdup(names[i]), .kernel = str(text, "kernel"),
			.commit = str(text, "commit"), .config = str(text, "config"),
			.arch = str(text, "arch"), .budget_s = num(text, "budget_s"),
			.programs = num(text, "programs"), .programs_s = num(text, "programs_s"),
			.coverage = num(text, "coverage"), .swap_in = num(text, "swap_in"),
			.swap_out = num(text, "swap_out"), .findings = num(text, "findings"),
			.bugs = num(text, "bugs"), .new_bugs = num(text, "new_bugs"),
			.error = num(text, "error") != 0,
		};
		free(text);
		path = mmf_xasprintf("%s/%s/bugs", dir, names[i]);
		bugs = mmf_read_file(path, NULL);
		free(path);
		add_bugs(h, h->nr_nights++, bugs, &last, &new_last);
		free(bugs);
	}
	for (int i = 0; i < h->nr_bugs; i++) {
		struct mmf_bug_history *b = &h->bugs[i];

		b->missed = h->nr_nights - 1 - last[i];
		b->missing = b->missed ? h->nights[last[i] + 1].id : NULL;
		if (!b->missed)
			b->state = b->nights == 1 && new_last[i] ? MMF_BUG_NEW : MMF_BUG_HAPPENING;
		else
			b->state = b->missed >= fixed_after ? MMF_BUG_FIXED : MMF_BUG_QUIET;
	}
	if (h->nr_bugs)
		qsort(h->bugs, h->nr_bugs, sizeof(*h->bugs), by_last);
	for (int i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	free(last);
	free(new_last);
	free(dir);
	return 0;
}

void mmf_history_free(struct mmf_history *h)
{
	for (int i = 0; i < h->nr_nights; i++)
		mmf_night_free(&h->nights[i]);
	for (int i = 0; i < h->nr_bugs; i++)
		free(h->bugs[i].title);
	free(h->nights);
	free(h->bugs);
	memset(h, 0, sizeof(*h));
}

const char *mmf_bug_state_name(enum mmf_bug_state s)
{
	static const char *const names[] = {
		[MMF_BUG_NEW] = "new", [MMF_BUG_HAPPENING] = "happening",
		[MMF_BUG_QUIET] = "quiet", [MMF_BUG_FIXED] = "fixed",
	};

	return names[s];
}

void mmf_bug_state_text(const struct mmf_bug_history *b, struct strbuf *sb)
{
	switch (b->state) {
	case MMF_BUG_NEW:
		mmf_sb_puts(sb, "new tonight");
		break;
	case MMF_BUG_HAPPENING:
		mmf_sb_printf(sb, "still happening (%d nights)", b->nights);
		break;
	case MMF_BUG_QUIET:
	case MMF_BUG_FIXED:
		mmf_sb_printf(sb, "not seen for %d night%s%s", b->missed, b->missed == 1 ? "" : "s",
			      b->state == MMF_BUG_FIXED ? " (likely fixed)" : "");
		break;
	}
}
