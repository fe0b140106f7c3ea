// SPDX-License-Identifier: GPL-2.0
/*
 * What a patch series changes: its files, and the functions whose lines it
 * touches (the diff read against the patched sources) or whose code it
 * changes (the two vmlinux files' function sizes compared, as syz-diff
 * compares symbols: a size survives the shifts of every address after a
 * change, which comparing bytes would not).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cover/cover.h"
#include "validate/validate.h"

struct hunk {
	int old_lo, old_n, new_lo, new_n;
};

/* The lines of one file the series has changed so far, in its numbering. */
struct touched {
	char *file;
	int *line;
	int nr_lines;
};

static struct touched *touched_of(struct touched **v, int *n, const char *file, size_t len)
{
	for (int i = 0; i < *n; i++)
		if (strlen((*v)[i].file) == len && !strncmp((*v)[i].file, file, len))
			return &(*v)[i];
	*v = mmf_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n] = (struct touched){ .file = mmf_xasprintf("%.*s", (int)len, file) };
	return &(*v)[(*n)++];
}

static void mark(struct touched *t, int line)
{
	t->line = mmf_xrealloc(t->line, (t->nr_lines + 1) * sizeof(*t->line));
	t->line[t->nr_lines++] = line;
}

/* A line of the file before this patch's hunks, after them. */
static int shift(const struct hunk *h, int nh, int line)
{
	int delta = 0;

	for (int i = 0; i < nh; i++) {
		/* "-a,0" inserts after line a: nothing of it is before a + 1 */
		int lo = h[i].old_n ? h[i].old_lo : h[i].old_lo + 1;

		if (line < lo)
			break;
		if (line < lo + h[i].old_n)
			return h[i].new_lo + MIN(line - lo, MAX(h[i].new_n - 1, 0));
		delta += h[i].new_n - h[i].old_n;
	}
	return line + delta;
}

/* "@@ -a[,b] +c[,d] @@" */
static bool hunk_header(const char *s, struct hunk *h)
{
	char *end;

	h->old_n = h->new_n = 1;
	if (strncmp(s, "@@ -", 4))
		return false;
	h->old_lo = strtol(s + 4, &end, 10);
	if (*end == ',')
		h->old_n = strtol(end + 1, &end, 10);
	if (strncmp(end, " +", 2))
		return false;
	h->new_lo = strtol(end + 2, &end, 10);
	if (*end == ',')
		h->new_n = strtol(end + 1, &end, 10);
	return !strncmp(end, " @@", 3) && h->old_n >= 0 && h->new_n >= 0;
}

/* The path of a "+++ b/mm/madvise.c\t..." line without its first component. */
static const char *new_path(const char *s, size_t *len)
{
	const char *p = s + 4, *slash = strchr(p, '/');

	if (!strncmp(p, "/dev/null", 9) || !slash)
		return NULL;
	p = slash + 1;
	*len = strcspn(p, "\t \n");
	return *len ? p : NULL;
}

/* A file's section of the series is over: what it found before moves with its hunks. */
static void section_end(struct touched *t, int before, const struct hunk *h, int nh,
			const int *mine, int nm)
{
	if (!t)
		return;
	for (int i = 0; i < before; i++)
		t->line[i] = shift(h, nh, t->line[i]);
	for (int i = 0; i < nm; i++)
		mark(t, mine[i]);
}

/*
 * The series (unified diffs, in order) into the lines each file has
 * changed, in the numbering of the file after the whole series: a line
 * added is marked, a removal marks the line now in its place, and what
 * an earlier patch marked moves with the hunks of a later one.
 */
static int parse_series(const char *text, struct touched **v, int *nv, char *err, size_t n)
{
	struct touched *t = NULL;
	struct hunk *h = NULL;
	int *mine = NULL, nh = 0, nm = 0, before = 0, old = 0, new = 0, line = 0;

	for (const char *s = text; *s; s += strcspn(s, "\n") + (s[strcspn(s, "\n")] == '\n')) {
		if (old > 0 || new > 0) {
			if (*s == '\\')
				continue;
			if (*s != '+' && *s != '-' && *s != ' ' && *s != '\n') {
				snprintf(err, n, "%s: a hunk ends before its header said", t->file);
				break;
			}
			if (*s != '-')
				new--;
			if (*s != '+')
				old--;
			if (*s != ' ' && *s != '\n') {
				mine = mmf_xrealloc(mine, (nm + 1) * sizeof(*mine));
				mine[nm++] = line;
			}
			line += *s != '-';
			continue;
		}
		if (!strncmp(s, "+++ ", 4)) {
			size_t len;
			const char *p = new_path(s, &len);

			section_end(t, before, h, nh, mine, nm);
			nh = nm = 0;
			t = p ? touched_of(v, nv, p, len) : NULL;
			before = t ? t->nr_lines : 0;
		} else if (t && !strncmp(s, "@@ ", 3)) {
			h = mmf_xrealloc(h, (nh + 1) * sizeof(*h));
			if (!hunk_header(s, &h[nh])) {
				snprintf(err, n, "%s: bad hunk header '%.*s'", t->file,
					 (int)strcspn(s, "\n"), s);
				old = -1;
				break;
			}
			old = h[nh].old_n;
			new = h[nh].new_n;
			line = h[nh].new_n ? h[nh].new_lo : h[nh].new_lo + 1;
			nh++;
		}
	}
	if (old > 0 || new > 0)
		snprintf(err, n, "%s: the last hunk is cut short", t->file);
	else
		section_end(t, before, h, nh, mine, nm);
	free(h);
	free(mine);
	return old || new ? -1 : 0;
}

/* ---- the functions of a source file in the kernel's coding style ---- */

struct src_func {
	int lo, hi;		/* lines, from 1: the declaration's first to the closing brace */
	char *name;
	bool init;
};

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* A line that may begin a declaration: an identifier at column 0. */
static bool decl_line(const char *l)
{
	return (isalpha((unsigned char)*l) || *l == '_') && !strchr(l, ';');
}

/*
 * The name a declaration defines: the identifier before its first '(',
 * the syscall for SYSCALL_DEFINEn(name, ...).
 */
static char *decl_name(const char *d)
{
	const char *paren = strchr(d, '('), *e, *b;

	if (!paren)
		return NULL;
	for (e = paren; e > d && e[-1] == ' '; e--)
		;
	for (b = e; b > d && ident_char(b[-1]); b--)
		;
	if (b == e)
		return NULL;
	if (e - b > 14 && !strncmp(b, "SYSCALL_DEFINE", 14)) {
		const char *a = paren + 1;

		return mmf_xasprintf("__do_sys_%.*s", (int)strcspn(a, ", )"), a);
	}
	return mmf_xasprintf("%.*s", (int)(e - b), b);
}

/*
 * Function bodies open with '{' alone at column 0 and close with '}' at
 * column 0 (Documentation/process/coding-style.rst, chapter 3); the
 * declaration is the run of lines above that starts at column 0.
 */
static int source_funcs(const char *text, struct src_func **out)
{
	char **l = NULL;
	int nl = 0, nf = 0;
	struct src_func *f = NULL;
	char *copy = mmf_xstrdup(text);

	for (char *p = copy, *next; *p; p = next) {
		next = p + strcspn(p, "\n");
		if (*next)
			*next++ = '\0';
		l = mmf_xrealloc(l, (nl + 1) * sizeof(*l));
		l[nl++] = p;
	}
	for (int i = 1; i < nl; i++) {
		struct strbuf d;
		int lo = i - 1, hi;
		char *name;

		if (l[i][0] != '{' || l[i][1 + strspn(l[i] + 1, " \t")])
			continue;
		/* a blank line may part the declaration from its body */
		while (lo > 0 && !l[lo][0])
			lo--;
		while (lo > 0 && !decl_line(l[lo]) && (l[lo][0] == ' ' || l[lo][0] == '\t'))
			lo--;
		while (lo > 0 && decl_line(l[lo - 1]) && !strchr(l[lo - 1], '(') &&
		       !strchr(l[lo - 1], '}') && !strchr(l[lo - 1], '='))
			lo--;
		if (!decl_line(l[lo]))
			continue;
		for (hi = i + 1; hi < nl && l[hi][0] != '}'; hi++)
			;
		mmf_sb_init(&d);
		for (int k = lo; k < i; k++)
			mmf_sb_printf(&d, "%s ", l[k]);
		name = decl_name(d.buf);
		if (name) {
			f = mmf_xrealloc(f, (nf + 1) * sizeof(*f));
			f[nf++] = (struct src_func){ .lo = lo + 1, .hi = MIN(hi, nl - 1) + 1,
						     .name = name,
						     .init = strstr(d.buf, " __init ") != NULL };
		}
		mmf_sb_free(&d);
		i = hi;
	}
	free(l);
	free(copy);
	*out = f;
	return nf;
}

/* ---- the changes ---- */

static struct mmf_val_func *func_of(struct mmf_val_changes *c, const char *file, const char *name)
{
	for (int i = 0; i < c->nr_funcs; i++)
		if (!strcmp(c->funcs[i].name, name) && !strcmp(c->funcs[i].file, file))
			return &c->funcs[i];
	c->funcs = mmf_xrealloc(c->funcs, (c->nr_funcs + 1) * sizeof(*c->funcs));
	c->funcs[c->nr_funcs] = (struct mmf_val_func){ .file = mmf_xstrdup(file),
						       .name = mmf_xstrdup(name) };
	return &c->funcs[c->nr_funcs++];
}

int mmf_val_changes_parse(const char *patches, char *(*source)(const char *file, void *arg),
			  void *arg, struct mmf_val_changes *c, char *err, size_t n)
{
	struct touched *t = NULL;
	int nt = 0, rc;

	memset(c, 0, sizeof(*c));
	rc = parse_series(patches, &t, &nt, err, n);
	if (!rc && !nt) {
		snprintf(err, n, "no file is changed (not a unified diff?)");
		rc = -1;
	}
	for (int i = 0; i < nt; i++) {
		char *text = rc ? NULL : source(t[i].file, arg);
		struct src_func *f = NULL;
		int nf = text ? source_funcs(text, &f) : 0;

		if (!rc) {
			c->files = mmf_xrealloc(c->files, (c->nr_files + 1) * sizeof(*c->files));
			c->files[c->nr_files++] = mmf_xstrdup(t[i].file);
		}
		for (int k = 0; k < nf; k++) {
			for (int m = 0; m < t[i].nr_lines; m++) {
				if (t[i].line[m] >= f[k].lo && t[i].line[m] <= f[k].hi) {
					struct mmf_val_func *fn = func_of(c, t[i].file, f[k].name);

					fn->diff = true;
					fn->init = f[k].init;
					break;
				}
			}
			free(f[k].name);
		}
		free(f);
		free(text);
		free(t[i].file);
		free(t[i].line);
	}
	free(t);
	if (rc)
		mmf_val_changes_free(c);
	return rc;
}

/*
 * Functions told apart by file and name (statics of one name live in many
 * files), and a header's inline function has an out-of-line copy in each
 * object that did not inline it: the copies of one name are compared as
 * a multiset of sizes.
 */
static int cmp_name(const struct mmf_text_func *x, const struct mmf_text_func *y)
{
	int r = strcmp(x->file, y->file);

	return r ? r : strcmp(x->name, y->name);
}

static int cmp_func(const void *a, const void *b)
{
	const struct mmf_text_func *x = a, *y = b;
	int r = cmp_name(x, y);

	if (r)
		return r;
	return (x->hi - x->lo > y->hi - y->lo) - (x->hi - x->lo < y->hi - y->lo);
}

static struct mmf_text_func *sorted_copy(const struct mmf_text_funcs *t)
{
	struct mmf_text_func *v = mmf_xmalloc((t->n + 1) * sizeof(*v));

	memcpy(v, t->v, t->n * sizeof(*v));
	qsort(v, t->n, sizeof(*v), cmp_func);
	return v;
}

/* The end of the run of copies of v[i]'s name. */
static size_t group_end(const struct mmf_text_func *v, size_t n, size_t i)
{
	size_t e = i + 1;

	while (e < n && !cmp_name(&v[e], &v[i]))
		e++;
	return e;
}

/* Mark the names of patched whose copies differ from base's, or base lacks. */
static void code_changes(struct mmf_val_changes *c, const struct mmf_text_funcs *base,
			 const struct mmf_text_funcs *patched)
{
	struct mmf_text_func *b = sorted_copy(base), *p = sorted_copy(patched);
	size_t i = 0, j = 0;

	while (j < patched->n) {
		size_t je = group_end(p, patched->n, j), ie;
		int r = 1;

		while (i < base->n && (r = cmp_name(&b[i], &p[j])) < 0)
			i = group_end(b, base->n, i);
		ie = r ? i : group_end(b, base->n, i);
		if (r || ie - i != je - j) {
			func_of(c, p[j].file, p[j].name)->code = true;
		} else {
			for (size_t k = 0; k < je - j; k++) {
				if (b[i + k].hi - b[i + k].lo != p[j + k].hi - p[j + k].lo) {
					func_of(c, p[j].file, p[j].name)->code = true;
					break;
				}
			}
		}
		j = je;
	}
	free(b);
	free(p);
}

/*
 * name in the text is the function fn of the source: itself, a clone the
 * compiler made of it (fn.isra.0, fn.constprop.0), or for a syscall's
 * body (__do_sys_NAME, often inlined) its arch's entry (__x64_sys_NAME).
 */
static bool same_func(const char *name, const char *fn)
{
	size_t l = strlen(fn);
	const char *sys = !strncmp(fn, "__do_sys_", 9) ? fn + 9 : NULL, *u;

	if (!strncmp(name, fn, l) && (!name[l] || name[l] == '.'))
		return true;
	u = sys ? strstr(name, "_sys_") : NULL;
	return u && u[5 + strlen(sys)] == '\0' && !strcmp(u + 5, sys) && name[0] == '_';
}

int mmf_val_changes_code(struct mmf_val_changes *c, const char *base, const char *patched,
			 char *err, size_t n)
{
	struct mmf_text_funcs tf[2];

	if (mmf_text_funcs_load(base, &tf[0], err, n))
		return -1;
	if (mmf_text_funcs_load(patched, &tf[1], err, n)) {
		mmf_text_funcs_free(&tf[0]);
		return -1;
	}
	code_changes(c, &tf[0], &tf[1]);
	/* Where each changed function is in the patched text, if it is there. */
	for (int k = 0; k < c->nr_funcs; k++) {
		struct mmf_val_func *fn = &c->funcs[k];

		for (size_t i = 0; i < tf[1].n; i++) {
			if (same_func(tf[1].v[i].name, fn->name) && !strcmp(tf[1].v[i].file, fn->file)) {
				fn->lo = tf[1].v[i].lo;
				fn->hi = tf[1].v[i].hi;
				break;
			}
		}
	}
	/* The patch's files' other functions, for the focus's second weight. */
	for (size_t i = 0; i < tf[1].n; i++) {
		for (int k = 0; k < c->nr_files; k++) {
			if (!strcmp(tf[1].v[i].file, c->files[k])) {
				mmf_focus_add(&c->file_text, tf[1].v[i].lo, tf[1].v[i].hi);
				break;
			}
		}
	}
	mmf_focus_merge(&c->file_text);
	mmf_text_funcs_free(&tf[0]);
	mmf_text_funcs_free(&tf[1]);
	return 0;
}

void mmf_val_changes_free(struct mmf_val_changes *c)
{
	for (int i = 0; i < c->nr_files; i++)
		free(c->files[i]);
	for (int i = 0; i < c->nr_funcs; i++) {
		free(c->funcs[i].file);
		free(c->funcs[i].name);
	}
	free(c->files);
	free(c->funcs);
	mmf_focus_free(&c->file_text);
	memset(c, 0, sizeof(*c));
}
