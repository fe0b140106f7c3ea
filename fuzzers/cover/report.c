// SPDX-License-Identifier: GPL-2.0
/*
 * The coverage report: the PCs guests saw against the instrumented PCs of
 * the focus (sites.c), per file and function (funcs.c).
 *
 * A PC counts when it is the return address of a site, as KCOV_TRACE_PC
 * records it; a PC in the focus that is none (an address from elsewhere,
 * a call's own address) is counted apart, so that a PC file of the wrong
 * kind shows at once instead of as low coverage.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cover/cover.h"
#include "cover/internal.h"

int mmf_cover_pcs_parse(const char *name, const char *text, size_t len, struct mmf_cover_pcs *p,
			char *err, size_t n)
{
	size_t pos = 0, line = 0;

	while (pos < len) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - s) : len - pos;
		uint64_t pc;

		pos += l + 1;
		line++;
		while (l && (s[l - 1] == '\r' || s[l - 1] == ' ' || s[l - 1] == '\t'))
			l--;
		while (l && (*s == ' ' || *s == '\t')) {
			s++;
			l--;
		}
		if (!l || *s == '#')
			continue;
		if (!mmf_parse_hex_u64(s, l, &pc)) {
			snprintf(err, n, "%s:%zu: '%.*s' is not a hex address", name, line,
				 (int)MIN(l, 40), s);
			return -1;
		}
		if (p->n == p->cap) {
			p->cap = p->cap ? p->cap * 2 : 1024;
			p->v = mmf_xrealloc(p->v, p->cap * sizeof(*p->v));
		}
		p->v[p->n++] = pc;
	}
	return 0;
}

int mmf_cover_pcs_read(const char *path, struct mmf_cover_pcs *p, char *err, size_t n)
{
	size_t len;
	char *text = mmf_read_file(strcmp(path, "-") ? path : "/dev/stdin", &len);
	int ret;

	if (!text) {
		snprintf(err, n, "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = mmf_cover_pcs_parse(path, text, len, p, err, n);
	free(text);
	return ret;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void mmf_cover_pcs_sort(struct mmf_cover_pcs *p)
{
	size_t k = 0;

	qsort(p->v, p->n, sizeof(*p->v), cmp_u64);
	for (size_t i = 0; i < p->n; i++)
		if (!k || p->v[i] != p->v[k - 1])
			p->v[k++] = p->v[i];
	p->n = k;
}

void mmf_cover_pcs_free(struct mmf_cover_pcs *p)
{
	free(p->v);
	memset(p, 0, sizeof(*p));
}

/* The directory a file would be written into: it must take a new file. */
static int dir_of_writable(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? mmf_xasprintf("%.*s", (int)(slash - path + 1), path) : mmf_xstrdup(".");
	int err = access(dir, W_OK | X_OK) ? errno : 0;

	free(dir);
	return err;
}

int mmf_cover_check(const struct mmf_cover_opts *o, char *err, size_t n)
{
	struct sym_elf e;
	struct stat st;
	char *why = NULL;
	int r;

	if (mmf_sym_cover_probe(o->vmlinux, &e, &why)) {
		snprintf(err, n, "%s", why);
		free(why);
		return -1;
	}
	if (mmf_focus_spec_check(o->focus, err, n))
		return -1;
	if (o->source) {
		r = stat(o->source, &st) ? errno : S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
		if (r) {
			snprintf(err, n, "--source %s: %s", o->source, strerror(r));
			return -1;
		}
	}
	if (o->html) {
		r = dir_of_writable(o->html);
		if (r) {
			snprintf(err, n, "--html %s: %s", o->html, strerror(r));
			return -1;
		}
	}
	return 0;
}

/* A site before the first function. */
static const struct sym_func nofunc = { .file = "?", .name = "?" };

/*
 * The function of a site: the one it is in, else (code past a function's
 * size: exception fixups, asm without one) the one before it in the same
 * range of the focus.
 */
static const struct sym_func *func_of(const struct sym_cover *c, uint64_t pc)
{
	const struct sym_func *f = mmf_sym_funcs_before(&c->fs, pc);

	if (f && pc >= f->hi && mmf_focus_find(&c->focus, pc) != mmf_focus_find(&c->focus, f->lo))
		return NULL;
	return f;
}

static int cmp_fn(const void *a, const void *b)
{
	const struct cover_fn *x = a, *y = b;
	int c = strcmp(x->fn->file, y->fn->file);

	if (!c)
		c = strcmp(x->fn->name, y->fn->name);
	return c ? c : (x->fn->lo > y->fn->lo) - (x->fn->lo < y->fn->lo);
}

/* Sites to functions, functions to files. */
static void tally(struct sym_cover *c)
{
	size_t nf = c->fs.n + 1, *fidx = mmf_xmalloc(nf * sizeof(*fidx));
	struct cover_fn *all = mmf_xcalloc(nf, sizeof(*all));
	size_t *of = mmf_xmalloc((c->sites.n + 1) * sizeof(*of));

	for (size_t i = 0; i < c->fs.n; i++)
		all[i].fn = &c->fs.v[i];
	all[c->fs.n].fn = &nofunc;
	for (size_t k = 0; k < c->sites.n; k++) {
		const struct sym_func *f = func_of(c, c->sites.v[k].call);
		size_t i = f ? (size_t)(f - c->fs.v) : c->fs.n;

		of[k] = i;
		all[i].nsites++;
		all[i].ncov += c->hit[k];
	}
	c->fns = mmf_xmalloc(nf * sizeof(*c->fns));
	for (size_t i = 0; i < nf; i++)
		if (all[i].nsites)
			c->fns[c->nfns++] = all[i];
	qsort(c->fns, c->nfns, sizeof(*c->fns), cmp_fn);
	/* where each function went, for the sites */
	for (size_t j = 0; j < c->nfns; j++)
		fidx[c->fns[j].fn == &nofunc ? c->fs.n : (size_t)(c->fns[j].fn - c->fs.v)] = j;
	c->site_fn = of;
	for (size_t k = 0; k < c->sites.n; k++)
		of[k] = fidx[of[k]];
	c->files = mmf_xcalloc(c->nfns + 1, sizeof(*c->files));
	for (size_t j = 0; j < c->nfns; j++) {
		struct cover_file *cf = &c->files[c->nfiles ? c->nfiles - 1 : 0];

		if (!c->nfiles || strcmp(cf->name, c->fns[j].fn->file)) {
			cf = &c->files[c->nfiles++];
			cf->name = c->fns[j].fn->file;
			cf->fn = j;
		}
		cf->nfn++;
		cf->nsites += c->fns[j].nsites;
		cf->ncov += c->fns[j].ncov;
	}
	free(all);
	free(fidx);
}

static double pct(size_t a, size_t b)
{
	return b ? 100.0 * a / b : 0.0;
}

static void print(const struct sym_cover *c, FILE *out)
{
	const struct mmf_cover_opts *o = c->o;
	size_t ns = 0, nc = 0;

	fprintf(out, "focus %s: %zu functions, %llu bytes of text, %zu instrumented PCs in %zu "
		"functions of %zu files\n", o->focus, c->focus_fns,
		(unsigned long long)mmf_focus_size(&c->focus), c->sites.n, c->nfns, c->nfiles);
	fprintf(out, "PCs: %zu distinct: %zu in the focus, %zu outside it\n", c->pcs, c->in,
		c->out);
	if (c->in > c->at_site)
		fprintf(out, "note: %zu PCs of the focus are no return address of a "
			"__sanitizer_cov_trace_pc call (not KCOV_TRACE_PC PCs of this vmlinux?)\n",
			c->in - c->at_site);
	fprintf(out, "%8s %8s %7s  %s\n", "covered", "instr", "%", "file / function");
	for (size_t i = 0; i < c->nfiles; i++) {
		const struct cover_file *f = &c->files[i];

		fprintf(out, "%8zu %8zu %6.1f%%  %s\n", f->ncov, f->nsites, pct(f->ncov, f->nsites),
			f->name);
		for (size_t j = f->fn; j < f->fn + f->nfn; j++)
			fprintf(out, "%8zu %8zu %6.1f%%    %s\n", c->fns[j].ncov, c->fns[j].nsites,
				pct(c->fns[j].ncov, c->fns[j].nsites), c->fns[j].fn->name);
		ns += f->nsites;
		nc += f->ncov;
	}
	fprintf(out, "%8zu %8zu %6.1f%%  total\n", nc, ns, pct(nc, ns));
}

static void cover_free(struct sym_cover *c)
{
	mmf_sym_funcs_free(&c->fs);
	mmf_focus_free(&c->focus);
	mmf_sym_sites_free(&c->sites);
	free(c->hit);
	free(c->site_fn);
	free(c->fns);
	free(c->files);
}

int mmf_cover_report(const struct mmf_cover_opts *o, const struct mmf_cover_pcs *pcs, FILE *out,
		     char *err, size_t n)
{
	struct sym_cover c = { .o = o };
	char *why = NULL;
	struct sym_elf e;
	bool *sel = NULL;
	int ret = -1;

	if (mmf_sym_cover_probe(o->vmlinux, &e, &why))
		goto out;
	c.cross = o->cross ? o->cross : mmf_sym_elf_cross(&e);
	if (mmf_sym_funcs_load(c.cross, o->vmlinux, &c.fs, &why))
		goto out;
	sel = mmf_xcalloc(c.fs.n + 1, sizeof(*sel));
	if (mmf_sym_focus_select(&c.fs, o->focus, &c.focus, sel, &why))
		goto out;
	for (size_t i = 0; i < c.fs.n; i++)
		c.focus_fns += sel[i];
	if (mmf_sym_sites_load(c.cross, o->vmlinux, &c.fs, &c.focus, &c.sites, &why))
		goto out;
	c.hit = mmf_xcalloc(c.sites.n + 1, sizeof(*c.hit));
	c.pcs = pcs->n;
	for (size_t i = 0; i < pcs->n; i++) {
		const struct sym_site *s;

		if (!mmf_focus_has(&c.focus, pcs->v[i])) {
			c.out++;
			continue;
		}
		c.in++;
		s = mmf_sym_site_of(&c.sites, pcs->v[i]);
		if (s) {
			c.at_site++;
			c.hit[s - c.sites.v] = true;
		}
	}
	tally(&c);
	print(&c, out);
	if (o->html && mmf_sym_cover_html(&c, &why))
		goto out;
	ret = 0;
out:
	if (why)
		snprintf(err, n, "%s", why);
	free(why);
	free(sel);
	cover_free(&c);
	return ret;
}
