// SPDX-License-Identifier: GPL-2.0
/*
 * The store as one static HTML page: a table, one row per bug, with
 * relative links to the files. Everything from the store is escaped, and
 * bytes that are not UTF-8 (titles are kept as the kernel printed them)
 * become U+FFFD, so the page is valid whatever the titles hold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/internal.h"

static const char page_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<title>mmfuzz crashes</title>\n<style>\n"
	"body { font-family: sans-serif; margin: 1em; }\n"
	"table { border-collapse: collapse; }\n"
	"th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; vertical-align: top; }\n"
	"th { background: #eee; text-align: left; }\n"
	"td.title { font-family: monospace; max-width: 40em; overflow-wrap: anywhere; }\n"
	"td.count { text-align: right; }\n"
	"td.kernel { font-size: smaller; max-width: 20em; }\n"
	"td.first, td.last, td.files div { white-space: nowrap; }\n"
	"</style>\n</head>\n<body>\n<h1>mmfuzz crashes</h1>\n";

static const char *const columns[] = {
	"Title", "Count", "First seen", "Last seen", "Arch", "Kernel", "Reproducer", "Files",
};

/* Percent-encode a path for href: what is left needs no HTML escaping. */
static void put_url(struct strbuf *sb, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
			mmf_sb_add(sb, (const char *)p, 1);
		else
			mmf_sb_printf(sb, "%%%02X", *p);
	}
}

static void put_link(struct strbuf *sb, const char *prefix, const struct mmf_bug *b,
		     const char *file)
{
	mmf_sb_puts(sb, "<a href=\"");
	put_url(sb, prefix);
	put_url(sb, b->name);
	mmf_sb_puts(sb, "/");
	put_url(sb, file);
	mmf_sb_puts(sb, "\">");
	mmf_sb_html(sb, file);
	mmf_sb_puts(sb, "</a>");
}

static void put_cell(struct strbuf *sb, const char *class, const char *text)
{
	mmf_sb_printf(sb, "<td class=\"%s\">", class);
	mmf_sb_html(sb, text);
	mmf_sb_puts(sb, "</td>");
}

static void put_files(struct strbuf *sb, const char *prefix, const struct mmf_bug *b)
{
	static const struct {
		unsigned int bit;
		const char *fmt;
	} files[] = {
		{ MMF_OCC_REPORT, "report.%d" }, { MMF_OCC_SYM, "report.%d.sym" },
		{ MMF_OCC_LOG, "log.%d" }, { MMF_OCC_PROGS, "progs.%d" },
	};

	mmf_sb_puts(sb, "<td class=\"files\">");
	/* The other titles it came under (store.h): their file, and them. */
	if (*b->alt) {
		mmf_sb_puts(sb, "<div class=\"alt\">");
		put_link(sb, prefix, b, "alt");
		mmf_sb_puts(sb, ": ");
		mmf_sb_html(sb, b->alt);
		mmf_sb_puts(sb, "</div>");
	}
	for (int i = 0; i < b->nr_occ; i++) {
		mmf_sb_printf(sb, "<div class=\"occ\">#%d:", b->occ[i].n);
		for (size_t f = 0; f < ARRAY_SIZE(files); f++) {
			char *name;

			if (!(b->occ[i].files & files[f].bit))
				continue;
			name = mmf_xasprintf(files[f].fmt, b->occ[i].n);
			mmf_sb_puts(sb, " ");
			put_link(sb, prefix, b, name);
			free(name);
		}
		mmf_sb_puts(sb, "</div>");
	}
	mmf_sb_puts(sb, "</td>");
}

static void put_row(struct strbuf *sb, const char *prefix, const struct mmf_bug *b)
{
	char count[24];

	mmf_sb_puts(sb, "<tr class=\"bug\" data-dir=\"");
	mmf_sb_html(sb, b->name);
	mmf_sb_puts(sb, "\">");
	put_cell(sb, "title", b->title);
	snprintf(count, sizeof(count), "%ld", b->count);
	put_cell(sb, "count", count);
	put_cell(sb, "first", b->first_seen);
	put_cell(sb, "last", b->last_seen);
	put_cell(sb, "arch", b->arch);
	put_cell(sb, "kernel", b->kernel);
	mmf_sb_puts(sb, "<td class=\"repro\"><span class=\"status\">");
	mmf_sb_html(sb, b->repro);
	mmf_sb_puts(sb, "</span>");
	for (int i = 0; i < b->nr_repro; i++) {
		mmf_sb_puts(sb, " ");
		put_link(sb, prefix, b, b->repro_files[i]);
	}
	mmf_sb_puts(sb, "</td>");
	put_files(sb, prefix, b);
	mmf_sb_puts(sb, "</tr>\n");
}

void mmf_store_html(const struct mmf_bug *b, int n, const char *prefix, struct strbuf *sb)
{
	char now[32];
	long crashes = 0;

	for (int i = 0; i < n; i++)
		crashes += b[i].count;
	mmf_iso_time(time(NULL), now);
	mmf_sb_puts(sb, page_head);
	mmf_sb_printf(sb, "<p id=\"summary\">%d bug%s, %ld crash%s; generated %s</p>\n",
		  n, n == 1 ? "" : "s", crashes, crashes == 1 ? "" : "es", now);
	mmf_sb_puts(sb, "<table id=\"bugs\">\n<thead><tr>");
	for (size_t i = 0; i < ARRAY_SIZE(columns); i++)
		mmf_sb_printf(sb, "<th>%s</th>", columns[i]);
	mmf_sb_puts(sb, "</tr></thead>\n<tbody>\n");
	for (int i = 0; i < n; i++)
		put_row(sb, prefix, &b[i]);
	mmf_sb_puts(sb, "</tbody>\n</table>\n</body>\n</html>\n");
}
