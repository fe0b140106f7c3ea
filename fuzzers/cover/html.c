// SPDX-License-Identifier: GPL-2.0
/*
 * The coverage page, after syzkaller's /cover: the focus's files with
 * their percentages, then each file with covered PCs as its source, every
 * line marked covered (all its PCs seen), partly covered, not covered
 * (instrumented, none seen) or neither. Files without a covered PC are
 * listed only: their source would be all red and most of the page.
 *
 * A site marks the line of each frame of its inline chain in a file that
 * has a page: the line of the callback in an inlined helper and the line
 * that called the helper both. The lines come from one addr2line over the
 * sites of those files (their calls' addresses, which are on the line of
 * the code; the return address may be on the next one).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cover/internal.h"

struct line_mark {
	unsigned int cov, unc;
};

struct page_file {
	const struct cover_file *cf;
	size_t id;			/* its index in c->files, for anchors */
	struct line_mark *m;		/* by line number */
	size_t nm;
};

static const char head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<title>mmfuzz cover</title>\n<style>\n"
	"body { font-family: sans-serif; margin: 1em; }\n"
	"table { border-collapse: collapse; margin-bottom: 1em; }\n"
	"th, td { border: 1px solid #ccc; padding: 0.1em 0.5em; }\n"
	"th { background: #eee; text-align: left; }\n"
	"td.n { text-align: right; font-family: monospace; }\n"
	"pre { tab-size: 8; line-height: 1.2; }\n"
	".c { background: #c4eec4; }\n.p { background: #f6e49c; }\n.u { background: #f6c4c4; }\n"
	"</style>\n</head>\n<body>\n";

static double pct(size_t a, size_t b)
{
	return b ? 100.0 * a / b : 0.0;
}

static void put_row(struct strbuf *sb, const char *name, const char *anchor, size_t cov,
		    size_t n)
{
	mmf_sb_puts(sb, "<tr><td>");
	if (anchor)
		mmf_sb_printf(sb, "<a href=\"#%s\">", anchor);
	mmf_sb_html(sb, name);
	if (anchor)
		mmf_sb_puts(sb, "</a>");
	mmf_sb_printf(sb, "</td><td class=\"n\">%zu</td><td class=\"n\">%zu</td>"
		      "<td class=\"n\">%.1f%%</td></tr>\n", cov, n, pct(cov, n));
}

static int page_cmp(const void *name, const void *p)
{
	return strcmp(name, ((const struct page_file *)p)->cf->name);
}

/* c->files, and so pf, are sorted by name */
static struct page_file *page_of(struct page_file *pf, size_t n, const char *name)
{
	return bsearch(name, pf, n, sizeof(*pf), page_cmp);
}

static void mark(struct page_file *p, unsigned int line, bool hit)
{
	if (!line)
		return;
	if (line >= p->nm) {
		size_t n = MAX((size_t)line + 1, p->nm * 2);

		p->m = mmf_xrealloc(p->m, n * sizeof(*p->m));
		memset(p->m + p->nm, 0, (n - p->nm) * sizeof(*p->m));
		p->nm = n;
	}
	if (hit)
		p->m[line].cov++;
	else
		p->m[line].unc++;
}

/* The lines of the pages' sites: one addr2line for all of them. */
static int mark_lines(const struct sym_cover *c, struct page_file *pf, size_t npf, char **why)
{
	size_t *fn_page = mmf_xmalloc((c->nfns + 1) * sizeof(*fn_page)), *which, n = 0;
	uint64_t *addrs = mmf_xmalloc((c->sites.n + 1) * sizeof(*addrs));
	char *a2l = mmf_xasprintf("%saddr2line", c->cross);
	struct sym_chain *res;
	int ret = 0;

	which = mmf_xmalloc((c->sites.n + 1) * sizeof(*which));
	for (size_t j = 0; j < c->nfns; j++)
		fn_page[j] = SIZE_MAX;
	for (size_t i = 0; i < npf; i++)
		for (size_t j = pf[i].cf->fn; j < pf[i].cf->fn + pf[i].cf->nfn; j++)
			fn_page[j] = i;
	for (size_t k = 0; k < c->sites.n; k++) {
		if (fn_page[c->site_fn[k]] != SIZE_MAX) {
			which[n] = k;
			addrs[n++] = c->sites.v[k].call;
		}
	}
	res = mmf_xcalloc(n + 1, sizeof(*res));
	if (n && mmf_sym_addr2line(a2l, c->o->vmlinux, NULL, addrs, n, res, why)) {
		ret = -1;
		n = 0;
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t f = 0; f < res[i].n; f++) {
			unsigned int line;
			char *file = mmf_sym_where_file(res[i].v[f].where, c->fs.base,
							c->fs.comp_dir, &line);
			struct page_file *p = page_of(pf, npf, file);

			if (p)
				mark(p, line, c->hit[which[i]]);
			free(file);
		}
		mmf_sym_chain_free(&res[i]);
	}
	free(res);
	free(a2l);
	free(addrs);
	free(which);
	free(fn_page);
	return ret;
}

static char *in_dir(const char *dir, const char *file, struct strbuf *tried)
{
	char *path = mmf_xasprintf("%s/%s", dir, file);

	mmf_sb_printf(tried, "%s%s", tried->len ? ", " : "", dir);
	if (!access(path, R_OK))
		return path;
	free(path);
	return NULL;
}

/*
 * Where the tree may be: --source, else the one the vmlinux names (its
 * init/main.c), the build directory's "source" link (an O= build), one
 * beside the vmlinux, the build directory itself (generated files).
 */
static char *find_source(const struct sym_cover *c, const char *file, struct strbuf *tried)
{
	const char *slash = strrchr(c->o->vmlinux, '/');
	char *vdir_src = slash ? mmf_xasprintf("%.*s/source", (int)(slash - c->o->vmlinux),
					       c->o->vmlinux) : mmf_xstrdup("source");
	char *cdir_src = c->fs.comp_dir ? mmf_xasprintf("%s/source", c->fs.comp_dir) : NULL;
	const char *dirs[] = { c->fs.base, cdir_src, vdir_src, c->fs.comp_dir };
	char *found = NULL;

	if (file[0] == '/') {
		/* outside the trees the vmlinux names */
		mmf_sb_puts(tried, file);
		found = access(file, R_OK) ? NULL : mmf_xstrdup(file);
	} else if (c->o->source) {
		found = in_dir(c->o->source, file, tried);
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(dirs) && !found; i++)
			if (dirs[i])
				found = in_dir(dirs[i], file, tried);
	}
	free(vdir_src);
	free(cdir_src);
	return found;
}

static const char *line_class(const struct page_file *p, size_t line)
{
	const struct line_mark *m = line < p->nm ? &p->m[line] : NULL;

	if (!m || (!m->cov && !m->unc))
		return NULL;
	return !m->unc ? "c" : m->cov ? "p" : "u";
}

static void put_line(struct strbuf *sb, const char *cls, size_t line, const char *text)
{
	if (cls)
		mmf_sb_printf(sb, "<span class=\"%s\">", cls);
	mmf_sb_printf(sb, "%6zu  ", line);
	mmf_sb_html(sb, text);
	mmf_sb_puts(sb, cls ? "</span>\n" : "\n");
}

static void put_source(const struct sym_cover *c, const struct page_file *p, struct strbuf *sb)
{
	struct strbuf tried;
	char *path, *text = NULL;
	size_t len = 0, line = 0;

	mmf_sb_init(&tried);
	path = find_source(c, p->cf->name, &tried);
	if (path)
		text = mmf_read_file(path, &len);
	if (!text) {
		/* the marked lines alone */
		mmf_sb_puts(sb, "<p>No source (looked in ");
		mmf_sb_html(sb, tried.buf ? tried.buf : "");
		mmf_sb_puts(sb, "; see --source): the marked lines only.</p>\n<pre>\n");
		for (size_t l = 1; l < p->nm; l++)
			if (line_class(p, l))
				put_line(sb, line_class(p, l), l, "");
	} else {
		mmf_sb_puts(sb, "<pre>\n");
		for (char *s = text, *nl; s < text + len; s = nl + 1) {
			nl = memchr(s, '\n', text + len - s);
			if (!nl)
				nl = text + len;
			*nl = '\0';
			line++;
			put_line(sb, line_class(p, line), line, s);
		}
	}
	mmf_sb_puts(sb, "</pre>\n");
	free(text);
	free(path);
	mmf_sb_free(&tried);
}

static void put_page(const struct sym_cover *c, const struct page_file *pf, size_t npf,
		     struct strbuf *sb)
{
	size_t ns = 0, nc = 0, k = 0;

	for (size_t i = 0; i < c->nfiles; i++) {
		ns += c->files[i].nsites;
		nc += c->files[i].ncov;
	}
	mmf_sb_puts(sb, head);
	mmf_sb_puts(sb, "<h1>Kernel coverage: focus ");
	mmf_sb_html(sb, c->o->focus);
	mmf_sb_puts(sb, "</h1>\n<p>");
	mmf_sb_html(sb, c->o->vmlinux);
	mmf_sb_printf(sb, ": %zu of %zu instrumented PCs covered (%.1f%%) in %zu files; "
		      "%zu distinct PCs seen, %zu in the focus, %zu outside it.</p>\n", nc, ns,
		      pct(nc, ns), c->nfiles, c->pcs, c->in, c->out);
	mmf_sb_puts(sb, "<p>Lines: <span class=\"c\">covered</span>, <span class=\"p\">partly "
		    "covered</span>, <span class=\"u\">not covered</span>. Files without a covered "
		    "PC are listed without their source.</p>\n");
	mmf_sb_puts(sb, "<table>\n<tr><th>file</th><th>covered</th><th>instrumented</th>"
		    "<th>%</th></tr>\n");
	for (size_t i = 0; i < c->nfiles; i++) {
		char anchor[32];
		bool page = k < npf && pf[k].id == i;

		snprintf(anchor, sizeof(anchor), "f%zu", i);
		put_row(sb, c->files[i].name, page ? anchor : NULL, c->files[i].ncov,
			c->files[i].nsites);
		k += page;
	}
	mmf_sb_puts(sb, "</table>\n");
	for (size_t i = 0; i < npf; i++) {
		const struct cover_file *f = pf[i].cf;

		mmf_sb_printf(sb, "<h2 id=\"f%zu\">", pf[i].id);
		mmf_sb_html(sb, f->name);
		mmf_sb_puts(sb, "</h2>\n<table>\n<tr><th>function</th><th>covered</th>"
			    "<th>instrumented</th><th>%</th></tr>\n");
		for (size_t j = f->fn; j < f->fn + f->nfn; j++)
			put_row(sb, c->fns[j].fn->name, NULL, c->fns[j].ncov, c->fns[j].nsites);
		mmf_sb_puts(sb, "</table>\n");
		put_source(c, &pf[i], sb);
	}
	mmf_sb_puts(sb, "</body>\n</html>\n");
}

int mmf_sym_cover_html(const struct sym_cover *c, char **why)
{
	struct page_file *pf = mmf_xcalloc(c->nfiles + 1, sizeof(*pf));
	struct strbuf sb;
	size_t npf = 0;
	int ret;

	for (size_t i = 0; i < c->nfiles; i++) {
		if (c->files[i].ncov) {
			pf[npf].cf = &c->files[i];
			pf[npf++].id = i;
		}
	}
	ret = mark_lines(c, pf, npf, why);
	mmf_sb_init(&sb);
	if (!ret) {
		put_page(c, pf, npf, &sb);
		if (mmf_write_file_atomic(c->o->html, sb.buf, sb.len)) {
			*why = mmf_xasprintf("--html %s: %s", c->o->html, strerror(errno));
			ret = -1;
		}
	}
	mmf_sb_free(&sb);
	for (size_t i = 0; i < npf; i++)
		free(pf[i].m);
	free(pf);
	return ret;
}
