// SPDX-License-Identifier: GPL-2.0
/*
 * Writing the page of a store. Its links are relative, so the page works
 * as file:// and through any web server, and keeps working when the store
 * and the page are copied or moved together.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "store/internal.h"

/* Split an absolute path into components, in place; comp is freed by the caller. */
static int split(char *path, char ***comp)
{
	int n = 0;

	*comp = mmf_xcalloc(strlen(path) / 2 + 1, sizeof(**comp));
	for (char *save, *c = strtok_r(path, "/", &save); c; c = strtok_r(NULL, "/", &save))
		(*comp)[n++] = c;
	return n;
}

/* "" if to == from, else e.g. "crashes/" or "../out/crashes/". */
static char *relative(char *to, char *from)
{
	char **tc, **fc;
	int nt = split(to, &tc), nf = split(from, &fc), k = 0;
	struct strbuf sb;

	while (k < nt && k < nf && !strcmp(tc[k], fc[k]))
		k++;
	mmf_sb_init(&sb);
	for (int i = k; i < nf; i++)
		mmf_sb_puts(&sb, "../");
	for (int i = k; i < nt; i++)
		mmf_sb_printf(&sb, "%s/", tc[i]);
	free(tc);
	free(fc);
	return mmf_sb_detach(&sb);
}

static int prefix_for(const char *dir, const char *page, char **prefix)
{
	char *pdir = mmf_xstrdup(page), *slash = strrchr(pdir, '/');
	char to[PATH_MAX], from[PATH_MAX];
	int ret = 0;

	if (!slash) {
		free(pdir);
		pdir = mmf_xstrdup(".");
	} else if (slash == pdir) {
		slash[1] = '\0';
	} else {
		*slash = '\0';
	}
	if (!realpath(dir, to))
		ret = mmf_store_fail(errno, "%s", dir);
	else if (!realpath(pdir, from))
		ret = mmf_store_fail(errno, "cannot write %s: %s", page, pdir);
	else
		*prefix = relative(to, from);
	free(pdir);
	return ret;
}

int mmf_store_html_file(const char *dir, const char *path, int *nr_bugs)
{
	struct mmf_bug *bugs;
	struct strbuf sb;
	char *prefix;
	int n = mmf_store_list(dir, &bugs), ret;

	if (n < 0)
		return n;
	ret = prefix_for(dir, path, &prefix);
	if (ret) {
		mmf_bugs_free(bugs, n);
		return ret;
	}
	mmf_sb_init(&sb);
	mmf_store_html(bugs, n, prefix, &sb);
	if (mmf_write_file_atomic(path, sb.buf, sb.len))
		ret = mmf_store_fail(errno, "cannot write %s", path);
	if (nr_bugs)
		*nr_bugs = n;
	mmf_sb_free(&sb);
	free(prefix);
	mmf_bugs_free(bugs, n);
	return ret;
}
