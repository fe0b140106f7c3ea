// SPDX-License-Identifier: GPL-2.0
/* A saved crash as reproduction sees it: title and programs in, reproducer out. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/crashdir.h"
#include "csource/csource.h"
#include "store/store.h"
#include "util/util.h"

/* The N of a programs' file name (progs.N, or an old store's prog.N), or -1. */
static int occ_number(const char *name)
{
	int n;
	char c;

	if (sscanf(name, "progs.%d%c", &n, &c) == 1 || sscanf(name, "prog.%d%c", &n, &c) == 1)
		return n;
	return -1;
}

static int newer_first(const void *a, const void *b)
{
	const char *x = strrchr(*(char *const *)a, '/'), *y = strrchr(*(char *const *)b, '/');

	return occ_number(y + 1) - occ_number(x + 1);
}

/* The crash directory's programs' files into c->occ, newest first. */
static void list_occ(const char *dir, struct mmf_crash_progs *c)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (occ_number(e->d_name) >= 0 && c->nr_occ < MMF_CRASH_OCC)
			c->occ[c->nr_occ++] = mmf_xasprintf("%s/%s", dir, e->d_name);
	if (d)
		closedir(d);
	qsort(c->occ, c->nr_occ, sizeof(*c->occ), newer_first);
}

/* Load occurrence k (0: the newest) into c's programs. */
static int load_occ(struct mmf_crash_progs *c, int k, char *err, size_t n)
{
	char *text = mmf_read_file(c->occ[k], NULL), e[256];
	int nr;

	if (!text) {
		snprintf(err, n, "%s: %s", c->occ[k], strerror(errno));
		return -1;
	}
	nr = mmf_progs_parse(text, c->progs, ARRAY_SIZE(c->progs), e, sizeof(e));
	free(text);
	if (nr < 0) {
		snprintf(err, n, "%s: %s", c->occ[k], e);
		return -1;
	}
	c->nr = nr;
	c->path = c->occ[k];
	return 0;
}

int mmf_crash_load(const char *dir, struct mmf_crash_progs *c, char *err, size_t n)
{
	char *path = mmf_xasprintf("%s/title", dir);

	memset(c, 0, sizeof(*c));
	c->title = mmf_read_file(path, NULL);
	if (!c->title || !*c->title) {
		snprintf(err, n, "%s: %s", path, c->title ? "empty" : strerror(errno));
		goto fail;
	}
	c->title[strcspn(c->title, "\n")] = '\0';
	list_occ(dir, c);
	if (!c->nr_occ) {
		snprintf(err, n, "%s: no programs (progs.N) saved with this crash", dir);
		goto fail;
	}
	if (load_occ(c, 0, err, n))
		goto fail;
	free(path);
	return 0;
fail:
	free(path);
	mmf_crash_progs_free(c);
	return -1;
}

void mmf_crash_progs_free(struct mmf_crash_progs *c)
{
	free(c->title);
	for (int k = 0; k < c->nr_occ; k++)
		free(c->occ[k]);
	c->title = c->path = NULL;
	c->nr_occ = 0;
}

/*
 * A bug found again and again may come back from one occurrence's
 * programs only (a corpus program against the fuzzer's mutants of it),
 * and one that depends on timing only in more runs than the first pass
 * gives each candidate.
 */
int mmf_crash_repro(const struct mmf_repro_ops *ops, struct mmf_crash_progs *c,
		    struct mmf_repro_result *res)
{
	struct mmf_repro_ops more = *ops;
	char err[512];

	for (;;) {
		int tried = 0;

		for (int k = 0; k < c->nr_occ; k++) {
			int r;

			if (load_occ(c, k, err, sizeof(err))) {
				if (ops->log)
					ops->log(ops->ctx, "%s", err);
				continue;
			}
			if (ops->log && c->nr_occ > 1)
				ops->log(ops->ctx, "occurrence %d of %d: %d program(s) from %s",
					 k + 1, c->nr_occ, c->nr, c->path);
			r = mmf_repro(&more, c->progs, c->nr, c->title, res);
			if (r < 0 || res->found || mmf_repro_expired(ops))
				return r;
			tried++;
		}
		if (!tried || !ops->deadline_ns || mmf_repro_expired(ops))
			return 0;
		more.attempts *= 2;
		if (ops->log)
			ops->log(ops->ctx, "not reproduced; all again with %d runs per candidate",
				 more.attempts);
	}
}

int mmf_crash_save_repro(const char *dir, const char *title,
			 const struct mmf_repro_result *res)
{
	struct strbuf sb, csrc;
	int r;

	mmf_sb_init(&sb);
	mmf_sb_init(&csrc);
	/* A comment the parser skips: how much to trust it, for whoever runs it. */
	mmf_sb_printf(&sb, "# mmfuzz: reproduced in %d of %d runs\n", res->hits, res->runs);
	for (int i = 0; i < res->nr_progs; i++) {
		if (res->nr_progs > 1)
			mmf_sb_printf(&sb, "%s %d of %d, run concurrently\n", MMF_PROG_EXEC_MARK,
				  i + 1, res->nr_progs);
		mmf_prog_print(&res->progs[i], &sb);
	}
	/* A C reproducer only of a single program: the sets run as text. */
	if (res->nr_progs == 1)
		mmf_prog_csource(&res->progs[0], &csrc);
	r = mmf_store_set_repro(dir, title, csrc.len ? "c" : "prog", sb.buf,
				csrc.len ? csrc.buf : NULL);
	mmf_sb_free(&sb);
	mmf_sb_free(&csrc);
	return r;
}
