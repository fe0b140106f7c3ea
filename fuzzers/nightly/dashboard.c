// SPDX-License-Identifier: GPL-2.0
/*
 * The dashboard, S/index.html: one static page with no script, readable
 * from a file or any web server: the bugs with their state and history,
 * the nights with their figures, and inline SVG plots over the nights.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "nightly/internal.h"
#include "util/util.h"

#define PLOT_W	360
#define PLOT_H	140
#define PAD	28

static double programs_s(const struct mmf_night *nt)
{
	return nt->programs_s;
}

static double coverage(const struct mmf_night *nt)
{
	return nt->coverage;
}

static double swaps(const struct mmf_night *nt)
{
	return nt->swap_in + nt->swap_out;
}

static double findings(const struct mmf_night *nt)
{
	return nt->findings;
}

/* A plotted figure: its name on the page and its value of a night. */
static const struct plot {
	const char *name, *title;
	double (*value)(const struct mmf_night *nt);
} plots[] = {
	{ "programs_s", "programs/s", programs_s },
	{ "coverage", "coverage (distinct PCs)", coverage },
	{ "swap", "swap traffic (pages in + out)", swaps },
	{ "findings", "findings", findings },
};

/* Night i's point in the plot's box. */
static void point(const struct plot *p, const struct mmf_history *h, int i, double max,
		  double *x, double *y)
{
	int n = h->nr_nights;

	*x = PAD + (n > 1 ? (double)i / (n - 1) : 0.5) * (PLOT_W - PAD * 1.5);
	*y = PLOT_H - PAD - p->value(&h->nights[i]) / max * (PLOT_H - PAD * 1.5);
}

static void plot(struct strbuf *sb, const struct plot *p, const struct mmf_history *h)
{
	double max = 0, x, y;
	int n = h->nr_nights;

	for (int i = 0; i < n; i++)
		max = MAX(max, p->value(&h->nights[i]));
	if (max <= 0)
		max = 1;
	mmf_sb_printf(sb, "<figure><figcaption>%s</figcaption>\n<svg class=\"plot\" "
		      "data-metric=\"%s\" data-points=\"%d\" width=\"%d\" height=\"%d\" "
		      "viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\">\n",
		      p->title, p->name, n, PLOT_W, PLOT_H, PLOT_W, PLOT_H);
	mmf_sb_printf(sb, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"axis\"/>"
		      "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"axis\"/>\n",
		      PAD, PAD / 2, PAD, PLOT_H - PAD, PAD, PLOT_H - PAD, PLOT_W - PAD / 2,
		      PLOT_H - PAD);
	mmf_sb_printf(sb, "<text x=\"%d\" y=\"%d\" class=\"tick\">%.6g</text>"
		      "<text x=\"%d\" y=\"%d\" class=\"tick\">0</text>\n", 2, PAD / 2 + 4, max, 2,
		      PLOT_H - PAD);
	mmf_sb_puts(sb, "<polyline class=\"line\" points=\"");
	for (int i = 0; i < n; i++) {
		point(p, h, i, max, &x, &y);
		mmf_sb_printf(sb, "%s%.1f,%.1f", i ? " " : "", x, y);
	}
	mmf_sb_puts(sb, "\"/>\n");
	for (int i = 0; i < n; i++) {
		point(p, h, i, max, &x, &y);
		mmf_sb_printf(sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"><title>", x, y);
		mmf_sb_html(sb, h->nights[i].id);
		mmf_sb_printf(sb, ": %.6g</title></circle>\n", p->value(&h->nights[i]));
	}
	if (n) {
		mmf_sb_printf(sb, "<text x=\"%d\" y=\"%d\" class=\"tick\">", PAD, PLOT_H - 8);
		mmf_sb_html(sb, h->nights[0].id);
		mmf_sb_printf(sb, "</text><text x=\"%d\" y=\"%d\" class=\"tick\" "
			      "text-anchor=\"end\">", PLOT_W - PAD / 2, PLOT_H - 8);
		mmf_sb_html(sb, h->nights[n - 1].id);
		mmf_sb_puts(sb, "</text>\n");
	}
	mmf_sb_puts(sb, "</svg></figure>\n");
}

/* A link to a file of the store, if it is there: whether it was. */
static bool link(struct strbuf *sb, const char *store, const char *rel, const char *text)
{
	char *path = mmf_xasprintf("%s/%s", store, rel);
	struct stat st;
	bool there = !stat(path, &st);

	if (there) {
		mmf_sb_puts(sb, "<a href=\"");
		mmf_sb_html(sb, rel);
		mmf_sb_puts(sb, "\">");
		mmf_sb_html(sb, text);
		mmf_sb_puts(sb, "</a> ");
	}
	free(path);
	return there;
}

/*
 * The bugs, or (corrupted) those seen in corrupted reports only, kept
 * apart: their titles may come from a mangled stack.
 */
static void bug_rows(struct strbuf *sb, const char *store, const struct mmf_history *h,
		     const struct mmf_bug *b, int nb, bool corrupted)
{
	struct strbuf st;
	int rows = 0;

	mmf_sb_init(&st);
	mmf_sb_puts(sb, corrupted ?
		    "<h2>Corrupted reports</h2>\n<p>Seen in corrupted reports only (cut"
		    " short or interleaved): the title may be wrong; not reproduced.</p>\n"
		    "<table id=\"corrupted\">\n" : "<h2>Bugs</h2>\n<table id=\"bugs\">\n");
	mmf_sb_puts(sb, "<tr><th>state</th><th>title</th>"
		    "<th>count</th><th>nights</th><th>first</th><th>last</th>"
		    "<th>reproducer</th><th>files</th></tr>\n");
	for (int i = 0; i < h->nr_bugs; i++) {
		const struct mmf_bug_history *x = &h->bugs[i];
		int k = nb > 0 ? mmf_store_find(b, nb, x->title) : -1;
		char *dir, *rel;

		if ((k >= 0 && mmf_bug_corrupted(&b[k])) != corrupted)
			continue;
		dir = k >= 0 ? mmf_xasprintf("crashes/%s", b[k].name) : NULL;
		rows++;
		st.len = 0;
		mmf_bug_state_text(x, &st);
		mmf_sb_printf(sb, "<tr class=\"bug %s\" data-state=\"%s\"><td class=\"state\">",
			      mmf_bug_state_name(x->state), mmf_bug_state_name(x->state));
		mmf_sb_html(sb, st.buf);
		if (x->missing) {
			mmf_sb_puts(sb, ", missing since ");
			mmf_sb_html(sb, x->missing);
		}
		mmf_sb_puts(sb, "</td><td class=\"title\">");
		rel = dir ? mmf_xasprintf("%s/report.txt", dir) : NULL;
		/* No report (yet): the title all the same. */
		if (!rel || !link(sb, store, rel, x->title))
			mmf_sb_html(sb, x->title);
		free(rel);
		mmf_sb_printf(sb, "</td><td class=\"count\">%ld</td><td class=\"nights\">%d</td>"
			      "<td class=\"first\">", x->count, x->nights);
		mmf_sb_html(sb, x->first);
		mmf_sb_puts(sb, "</td><td class=\"last\">");
		mmf_sb_html(sb, x->last);
		mmf_sb_puts(sb, "</td><td class=\"repro\">");
		if (k >= 0) {
			mmf_sb_html(sb, b[k].repro);
			mmf_sb_puts(sb, " ");
			for (int j = 0; j < b[k].nr_repro; j++) {
				rel = mmf_xasprintf("%s/%s", dir, b[k].repro_files[j]);
				link(sb, store, rel, b[k].repro_files[j]);
				free(rel);
			}
		}
		mmf_sb_puts(sb, "</td><td class=\"files\">");
		if (dir) {
			rel = mmf_xasprintf("%s/", dir);
			link(sb, store, rel, "directory");
			free(rel);
		}
		mmf_sb_puts(sb, "</td></tr>\n");
		free(dir);
	}
	if (!rows)
		mmf_sb_puts(sb, "<tr><td colspan=\"8\">No bug seen yet.</td></tr>\n");
	mmf_sb_puts(sb, "</table>\n");
	mmf_sb_free(&st);
}

/* A value short, "x86_64 6.12.118", its "(/path...)" only on hover: the table fits a screen. */
static void short_cell(struct strbuf *sb, const char *v)
{
	const char *paren = strstr(v, " (/");
	char *head = strndup(v, paren ? (size_t)(paren - v) : strlen(v));

	mmf_sb_puts(sb, "<td title=\"");
	mmf_sb_html(sb, v);
	mmf_sb_puts(sb, "\">");
	mmf_sb_html(sb, head);
	mmf_sb_puts(sb, "</td>");
	free(head);
}

static void night_rows(struct strbuf *sb, const char *store, const struct mmf_history *h)
{
	mmf_sb_puts(sb, "<h2>Nights</h2>\n<table id=\"nights\">\n<tr><th>night</th><th>kernel</th>"
		    "<th>commit</th><th>config</th><th>budget</th><th>programs</th>"
		    "<th>programs/s</th><th>coverage</th><th>swap in</th><th>swap out</th>"
		    "<th>findings</th><th>bugs</th><th>new</th></tr>\n");
	for (int i = h->nr_nights - 1; i >= 0; i--) {
		const struct mmf_night *nt = &h->nights[i];
		char *rel = mmf_xasprintf("nights/%s/summary.json", nt->id);

		mmf_sb_printf(sb, "<tr class=\"night%s\"><td class=\"id\">", nt->error ? " error" : "");
		link(sb, store, rel, nt->id);
		mmf_sb_puts(sb, "</td>");
		short_cell(sb, nt->kernel);
		short_cell(sb, nt->commit);
		short_cell(sb, nt->config);
		mmf_sb_printf(sb, "<td>%.0fs</td><td>%.0f</td><td>%.2f</td><td>%.0f</td>"
			      "<td>%.0f</td><td>%.0f</td><td>%d</td><td>%d</td><td>%d</td></tr>\n",
			      nt->budget_s, nt->programs, nt->programs_s, nt->coverage,
			      nt->swap_in, nt->swap_out, nt->findings, nt->bugs, nt->new_bugs);
		free(rel);
	}
	mmf_sb_puts(sb, "</table>\n");
}

int mmf_dashboard_write(const char *store, const struct mmf_history *h, char *err, size_t n)
{
	char *crashes = mmf_xasprintf("%s/crashes", store), *path;
	struct mmf_bug *b = NULL;
	struct strbuf sb;
	int nb = mmf_store_list(crashes, &b), r;

	mmf_sb_init(&sb);
	mmf_sb_puts(&sb, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
		    "<title>mmfuzz nightly</title>\n<style>\n"
		    "body { font-family: sans-serif; margin: 1em 2em; }\n"
		    "table { border-collapse: collapse; margin-bottom: 1em; }\n"
		    "td, th { border: 1px solid #ccc; padding: 2px 6px; text-align: left; }\n"
		    "tr.new td.state { color: #b00; font-weight: bold; }\n"
		    "tr.fixed td.state { color: #080; }\n"
		    "tr.error td { background: #fee; }\n"
		    "figure { display: inline-block; margin: 0 1em 1em 0; }\n"
		    ".axis { stroke: #888; } .tick { font-size: 9px; fill: #555; }\n"
		    ".line { fill: none; stroke: #36c; stroke-width: 2; } circle { fill: #36c; }\n"
		    "</style></head><body>\n<h1>mmfuzz nightly</h1>\n");
	mmf_sb_printf(&sb, "<p>%d night(s), %d bug(s).</p>\n<div id=\"plots\">\n", h->nr_nights,
		      h->nr_bugs);
	for (size_t i = 0; i < ARRAY_SIZE(plots); i++)
		plot(&sb, &plots[i], h);
	mmf_sb_puts(&sb, "</div>\n");
	bug_rows(&sb, store, h, b, nb, false);
	for (int i = 0; i < nb; i++)
		if (mmf_bug_corrupted(&b[i])) {
			bug_rows(&sb, store, h, b, nb, true);
			break;
		}
	night_rows(&sb, store, h);
	mmf_sb_puts(&sb, "</body></html>\n");
	path = mmf_xasprintf("%s/index.html", store);
	r = mmf_write_file_atomic(path, sb.buf, sb.len);
	if (r)
		snprintf(err, n, "cannot write %s: %s", path, strerror(errno));
	free(path);
	mmf_sb_free(&sb);
	if (nb > 0)
		mmf_bugs_free(b, nb);
	free(crashes);
	return r ? -1 : 0;
}
