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

/* The newest progs.N (or prog.N) of the crash directory, or NULL. */
static char *newest_progs(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *best = NULL;
	int best_n = -1;

	while (d && (e = readdir(d))) {
		int n;
		char c;

		if ((sscanf(e->d_name, "progs.%d%c", &n, &c) == 1 ||
		     sscanf(e->d_name, "prog.%d%c", &n, &c) == 1) && n > best_n) {
			free(best);
			best = mmf_xasprintf("%s/%s", dir, e->d_name);
			best_n = n;
		}
	}
	if (d)
		closedir(d);
	return best;
}

int mmf_crash_load(const char *dir, struct mmf_crash_progs *c, char *err, size_t n)
{
	char *path = mmf_xasprintf("%s/title", dir), *text, e[256];

	memset(c, 0, sizeof(*c));
	c->title = mmf_read_file(path, NULL);
	if (!c->title || !*c->title) {
		snprintf(err, n, "%s: %s", path, c->title ? "empty" : strerror(errno));
		goto fail;
	}
	c->title[strcspn(c->title, "\n")] = '\0';
	free(path);
	path = newest_progs(dir);
	if (!path) {
		snprintf(err, n, "%s: no programs (progs.N) saved with this crash", dir);
		goto fail;
	}
	text = mmf_read_file(path, NULL);
	if (!text) {
		snprintf(err, n, "%s: %s", path, strerror(errno));
		goto fail;
	}
	c->nr = mmf_progs_parse(text, c->progs, ARRAY_SIZE(c->progs), e, sizeof(e));
	free(text);
	if (c->nr < 0) {
		snprintf(err, n, "%s: %s", path, e);
		goto fail;
	}
	c->path = path;
	return 0;
fail:
	free(path);
	mmf_crash_progs_free(c);
	return -1;
}

void mmf_crash_progs_free(struct mmf_crash_progs *c)
{
	free(c->title);
	free(c->path);
	c->title = c->path = NULL;
}

int mmf_crash_save_repro(const char *dir, const char *title,
			 const struct mmf_repro_result *res)
{
	struct strbuf sb, csrc;
	char *store = mmf_xstrdup(dir), *slash;
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
	/* The bug directory's store is its parent. */
	while ((slash = strrchr(store, '/')) && slash != store && !slash[1])
		*slash = '\0';
	slash = strrchr(store, '/');
	if (slash)
		*slash = '\0';
	/* A C reproducer only of a single program: the sets run as text. */
	if (res->nr_progs == 1)
		mmf_prog_csource(&res->progs[0], &csrc);
	r = mmf_store_set_repro(slash ? store : ".", title, csrc.len ? "c" : "prog", sb.buf,
				csrc.len ? csrc.buf : NULL);
	mmf_sb_free(&sb);
	mmf_sb_free(&csrc);
	free(store);
	return r;
}
