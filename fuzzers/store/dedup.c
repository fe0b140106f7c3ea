// SPDX-License-Identifier: GPL-2.0
/*
 * Dedup by the parser's alternative titles (store.h, mmf_store_add()):
 * syzkaller names a KASAN report in a function also by the bad access in
 * it, a WARNING also by its file and line, and a report seen once under
 * each name is one bug. Only titles new to the store are matched, so the
 * common case, a known exact title, costs nothing more.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "store/internal.h"

/* Whether line is one of the lines of text. */
static bool has_line(const char *text, const char *line)
{
	size_t len = strlen(line);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, line, len) && (p[len] == '\n' || !p[len]))
			return true;
	return false;
}

/* Whether the crash, under title and its alternatives, is bug b. */
static bool same_bug(const struct mmf_bug *b, const char *title, const struct mmf_crash *c)
{
	for (int i = -1; i < c->nr_alt; i++) {
		const char *t = i < 0 ? title : c->alt_titles[i];

		if (t && (!strcmp(b->title, t) || has_line(b->alt, t)))
			return true;
	}
	return false;
}

char *mmf_store_alt_match(const char *dir, const char *title, const struct mmf_crash *c)
{
	struct mmf_bug *bugs;
	char *known = NULL;
	int n;

	/* A corrupted report's other titles come from a mangled stack. */
	if (c->corrupted)
		return NULL;
	n = mmf_store_list(dir, &bugs);
	for (int i = 0; i < n && !known; i++)
		if (same_bug(&bugs[i], title, c))
			known = mmf_xstrdup(bugs[i].title);
	if (n > 0)
		mmf_bugs_free(bugs, n);
	return known;
}

int mmf_store_alt_add(const struct bugdir *b, const char *bug_title, const char *title,
		      const struct mmf_crash *c)
{
	char *path = mmf_xasprintf("%s/alt", b->path);
	char *old = mmf_read_file(path, NULL);
	struct strbuf sb;
	int ret = 0;

	mmf_sb_init(&sb);
	mmf_sb_puts(&sb, old ? old : "");
	for (int i = -1; !c->corrupted && i < c->nr_alt; i++) {
		char *t = mmf_store_title(i < 0 ? title : c->alt_titles[i]);

		if (t && strcmp(t, bug_title) && !has_line(sb.buf ? sb.buf : "", t))
			mmf_sb_printf(&sb, "%s\n", t);
		free(t);
	}
	if (sb.len != (old ? strlen(old) : 0) &&
	    mmf_write_file_atomic(path, sb.buf, sb.len))
		ret = mmf_store_fail(errno, "cannot write %s", path);
	mmf_sb_free(&sb);
	free(old);
	free(path);
	return ret;
}
