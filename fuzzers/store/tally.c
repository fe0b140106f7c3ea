// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "store/tally.h"

void mmf_tally_add(struct mmf_tally *t, const char *title, const struct mmf_store_added *a)
{
	int i;

	for (i = 0; i < t->nr && strcmp(t->t[i].title, title); i++)
		;
	if (i == t->nr) {
		t->t = mmf_xrealloc(t->t, (t->nr + 1) * sizeof(*t->t));
		t->t[i] = (struct mmf_tally_title){ .title = mmf_xstrdup(title) };
		t->nr++;
	}
	t->t[i].count++;
	t->t[i].new_bug |= a && a->new_bug;
}

void mmf_tally_free(struct mmf_tally *t)
{
	for (int i = 0; i < t->nr; i++)
		free(t->t[i].title);
	free(t->t);
	memset(t, 0, sizeof(*t));
}

int mmf_tally_new(const struct mmf_tally *t)
{
	int n = 0;

	for (int i = 0; i < t->nr; i++)
		n += t->t[i].new_bug;
	return n;
}

static long total(const struct mmf_tally *t)
{
	long n = 0;

	for (int i = 0; i < t->nr; i++)
		n += t->t[i].count;
	return n;
}

void mmf_tally_print(const struct mmf_tally *t, FILE *f)
{
	fprintf(f, "findings: %ld in this run, %d new title(s), %d already in the store\n",
		total(t), mmf_tally_new(t), t->nr - mmf_tally_new(t));
	for (int i = 0; i < t->nr; i++)
		fprintf(f, "  %5ld  %-5s %s\n", t->t[i].count, t->t[i].new_bug ? "new" : "known",
			t->t[i].title);
	fflush(f);
}

int mmf_tally_json(const struct mmf_tally *t, const char *path, const char *extra)
{
	struct strbuf sb;
	int r;

	mmf_sb_init(&sb);
	mmf_sb_printf(&sb, "{\"findings\":%ld,\"new_titles\":%d,\"titles\":[", total(t),
		  mmf_tally_new(t));
	for (int i = 0; i < t->nr; i++) {
		mmf_sb_puts(&sb, i ? ",{\"title\":" : "{\"title\":");
		mmf_sb_json_str(&sb, t->t[i].title);
		mmf_sb_printf(&sb, ",\"count\":%ld,\"new\":%s}", t->t[i].count,
			  t->t[i].new_bug ? "true" : "false");
	}
	mmf_sb_puts(&sb, "]");
	if (extra && *extra)
		mmf_sb_printf(&sb, ",%s", extra);
	mmf_sb_puts(&sb, "}\n");
	r = mmf_write_file_atomic(path, sb.buf, sb.len);
	mmf_sb_free(&sb);
	return r;
}

int mmf_tally_exit(const struct mmf_tally *t)
{
	return mmf_tally_new(t) ? MMF_EXIT_FOUND : MMF_EXIT_CLEAN;
}
