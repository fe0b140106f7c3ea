// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the store. Readers take no lock: every file is replaced
 * atomically, so a reader sees each one old or new, never torn.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store/internal.h"

static struct mmf_occ *occ_slot(struct mmf_bug *b, int n)
{
	for (int i = 0; i < b->nr_occ; i++)
		if (b->occ[i].n == n)
			return &b->occ[i];
	b->occ = mmf_xrealloc(b->occ, (b->nr_occ + 1) * sizeof(*b->occ));
	b->occ[b->nr_occ] = (struct mmf_occ){ .n = n };
	return &b->occ[b->nr_occ++];
}

static int by_n(const void *a, const void *b)
{
	return ((const struct mmf_occ *)a)->n - ((const struct mmf_occ *)b)->n;
}

/* Reproducer file kinds, in the order the page shows them. */
static const char *const repro_exts[] = { "prog", "c" };

/* A reproducer's sort key (kind, then N: repro.prog is 0), or -1. */
static int repro_key(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(repro_exts); i++) {
		char *plain = mmf_xasprintf("repro.%s", repro_exts[i]);
		char *suffix = mmf_xasprintf(".%s", repro_exts[i]);
		int n = strcmp(name, plain) ? mmf_slot_of(name, "repro.", suffix) : 0;

		free(plain);
		free(suffix);
		if (n >= 0)
			return i * 10000000 + n;
	}
	return -1;
}

static int by_repro_key(const void *a, const void *b)
{
	return repro_key(*(char *const *)a) - repro_key(*(char *const *)b);
}

static void read_files(const char *path, struct mmf_bug *b)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int keep = 0;

	if (!d)
		return;
	while ((e = readdir(d))) {
		int n;
		unsigned int bit = mmf_occ_file(e->d_name, &n);

		if (bit) {
			occ_slot(b, n)->files |= bit;
		} else if (repro_key(e->d_name) >= 0) {
			b->repro_files = mmf_xrealloc(b->repro_files,
						  (b->nr_repro + 1) * sizeof(*b->repro_files));
			b->repro_files[b->nr_repro++] = mmf_xstrdup(e->d_name);
		}
	}
	closedir(d);
	/* A slot counts when its report is there: the report is linked first. */
	for (int i = 0; i < b->nr_occ; i++)
		if (b->occ[i].files & MMF_OCC_REPORT)
			b->occ[keep++] = b->occ[i];
	b->nr_occ = keep;
	if (b->nr_occ)
		qsort(b->occ, b->nr_occ, sizeof(*b->occ), by_n);
	if (b->nr_repro)
		qsort(b->repro_files, b->nr_repro, sizeof(*b->repro_files), by_repro_key);
}

/* Reproducers saved without a status (mmfuzz repro writes no meta). */
static void repro_status(struct mmf_bug *b)
{
	if (strcmp(b->repro, "none") || !b->nr_repro)
		return;
	free(b->repro);
	b->repro = mmf_xstrdup(repro_key(b->repro_files[0]) < 10000000 ? "prog" : "c");
}

/* 0 and *b filled, or 1 if name is no bug (no title: never claimed). */
static int read_bug(const char *dir, const char *name, struct mmf_bug *b)
{
	char *path = mmf_xasprintf("%s/%s", dir, name), *tpath = mmf_xasprintf("%s/title", path);
	struct meta m;
	size_t len;
	char *t = mmf_read_file(tpath, &len);

	free(tpath);
	if (!t) {
		free(path);
		return 1;
	}
	if (len && t[len - 1] == '\n')
		t[len - 1] = '\0';
	memset(b, 0, sizeof(*b));
	b->name = mmf_xstrdup(name);
	b->title = t;
	mmf_meta_init(&m);
	mmf_meta_read(path, &m);
	read_files(path, b);
	/* A writer killed between its report and meta: still counted. */
	b->count = MAX(m.count, b->nr_occ);
	b->corrupted = MIN(m.corrupted, b->count);
	memcpy(b->first_seen, m.first, sizeof(m.first));
	memcpy(b->last_seen, m.last, sizeof(m.last));
	b->arch = m.arch;
	b->kernel = m.kernel;
	b->repro = m.repro;
	b->found_by = m.found_by;
	repro_status(b);
	tpath = mmf_xasprintf("%s/alt", path);
	b->alt = mmf_read_file(tpath, NULL);
	if (!b->alt)
		b->alt = mmf_xstrdup("");
	free(tpath);
	free(path);
	return 0;
}

static int newest_first(const void *pa, const void *pb)
{
	const struct mmf_bug *a = pa, *b = pb;
	int c = strcmp(b->last_seen, a->last_seen);

	if (!c)
		c = strcmp(a->title, b->title);
	return c ? c : strcmp(a->name, b->name);
}

int mmf_store_list(const char *dir, struct mmf_bug **out)
{
	DIR *d = opendir(dir);
	struct mmf_bug *bugs = NULL;
	struct dirent *e;
	int n = 0;

	*out = NULL;
	if (!d)
		return mmf_store_fail(errno, "%s", dir);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		bugs = mmf_xrealloc(bugs, (n + 1) * sizeof(*bugs));
		if (!read_bug(dir, e->d_name, &bugs[n]))
			n++;
	}
	closedir(d);
	if (n) {
		qsort(bugs, n, sizeof(*bugs), newest_first);
		*out = bugs;
	} else {
		free(bugs);	/* directories that were no bugs */
	}
	return n;
}

void mmf_bugs_free(struct mmf_bug *b, int n)
{
	for (int i = 0; i < n; i++) {
		free(b[i].name);
		free(b[i].title);
		free(b[i].arch);
		free(b[i].kernel);
		free(b[i].repro);
		free(b[i].found_by);
		free(b[i].alt);
		free(b[i].occ);
		for (int j = 0; j < b[i].nr_repro; j++)
			free(b[i].repro_files[j]);
		free(b[i].repro_files);
	}
	free(b);
}

static int find_exact(const struct mmf_bug *b, int n, const char *t, const char *key)
{
	size_t len = strlen(key);

	for (int i = 0; i < n; i++)
		if (!strcmp(b[i].title, t))
			return i;
	/* A directory name as the shell completes it: "name/". */
	while (len && key[len - 1] == '/')
		len--;
	for (int i = 0; i < n; i++)
		if (strlen(b[i].name) == len && !strncmp(b[i].name, key, len))
			return i;
	return -ENOENT;
}

int mmf_store_find(const struct mmf_bug *b, int n, const char *key)
{
	char *t = mmf_store_title(key);
	int found;

	if (!t)
		return -ENOENT;
	found = find_exact(b, n, t, key);
	if (found == -ENOENT) {
		for (int i = 0; i < n; i++) {
			if (strncmp(b[i].title, t, strlen(t)))
				continue;
			/* A prefix must name one bug. */
			if (found >= 0) {
				found = -ENOTUNIQ;
				break;
			}
			found = i;
		}
	}
	free(t);
	return found;
}
