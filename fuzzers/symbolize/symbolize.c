// SPDX-License-Identifier: GPL-2.0
/*
 * The symbolizer: frame lines in, the same lines with source lines out.
 *
 * A report is done in three passes so that every object gets exactly one
 * addr2line process (one per section for a relocatable module): find the
 * frames and their addresses, look up each object's addresses together,
 * then write the report with the answers.
 */
#include <stdlib.h>
#include <string.h>

#include "symbolize/internal.h"
#include "symbolize/symbolize.h"

/* One frame line to symbolize. */
struct req {
	size_t line, len;		/* in the text, without the '\n' */
	struct sym_frame f;
	struct sym_obj *obj;
	const char *section;		/* relocatable objects only */
	uint64_t addr;
	bool asked;
	struct sym_chain chain;
};

/* The frame's address in its object, or false (noted) if it has none. */
static bool frame_addr(struct mmf_symbolizer *s, const char *line, struct req *r)
{
	const struct sym_frame *f = &r->f;
	const struct sym_ent *e;

	r->obj = mmf_sym_frame_obj(s, line, f);
	if (!r->obj)
		return false;
	e = mmf_sym_table_find(&r->obj->tab, line + f->sym, f->name_len, f->size);
	if (!e) {
		if (!r->obj->noted_unknown)
			mmf_sym_note(s, "%s: unknown symbols, such as %.*s: %s", r->obj->label,
				 (int)f->name_len, line + f->sym, LEFT_AS_IS);
		r->obj->noted_unknown = true;
		return false;
	}
	r->section = r->obj->rel ? e->section : NULL;
	r->addr = e->value + f->off;
	/* a return address: the call is the instruction before, as syzkaller looks up */
	if (!f->exact && r->addr)
		r->addr--;
	return true;
}

/* Pass 1: the frames of the text, with their objects and addresses. */
static size_t find_frames(struct mmf_symbolizer *s, const char *text, size_t len,
			  struct req **out)
{
	struct req *v = NULL;
	size_t n = 0, cap = 0;

	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;

		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			v = mmf_xrealloc(v, cap * sizeof(*v));
		}
		memset(&v[n], 0, sizeof(v[n]));
		v[n].line = pos;
		v[n].len = end - pos;
		if (mmf_sym_parse_frame(text + pos, end - pos, &v[n].f) &&
		    frame_addr(s, text + pos, &v[n]))
			n++;
		pos = end + 1;
	}
	*out = v;
	return n;
}

static bool same_group(const struct req *a, const struct req *b)
{
	if (a->obj != b->obj)
		return false;
	return a->section == b->section || (a->section && b->section &&
					     !strcmp(a->section, b->section));
}

char *mmf_sym_chain_base(const struct sym_chain *c)
{
	static const char tail[] = "/init/main.c:";
	const char *where, *t;

	if (!c->n)
		return NULL;
	where = c->v[c->n - 1].where;
	t = strstr(where, tail);
	return t && t > where ? mmf_xasprintf("%.*s", (int)(t - where), where) : NULL;
}

/* Pass 2: one addr2line per object and section, for all its addresses. */
static void ask_group(struct mmf_symbolizer *s, struct req *v, size_t n, size_t first)
{
	struct req *r0 = &v[first];
	struct sym_obj *o = r0->obj;
	size_t k = 0, *idx = mmf_xmalloc((n + 1) * sizeof(*idx));
	uint64_t *addrs = mmf_xmalloc((n + 1) * sizeof(*addrs));
	struct sym_chain *res;
	bool guess = false;
	char *why;

	for (size_t i = first; i < n; i++) {
		if (!v[i].asked && same_group(r0, &v[i])) {
			v[i].asked = true;
			idx[k] = i;
			addrs[k++] = v[i].addr;
		}
	}
	if (o == s->vml && !s->basepath && !o->base_tried && !r0->section) {
		const struct sym_ent *e = mmf_sym_table_find(&o->tab, "kernel_init", 11, 0);

		o->base_tried = true;
		if (e) {
			addrs[k] = e->value;
			guess = true;
		}
	}
	res = mmf_xcalloc(k + guess, sizeof(*res));
	if (mmf_sym_addr2line(s->addr2line, o->path, r0->section, addrs, k + guess, res, &why)) {
		mmf_sym_note(s, "%s: %s: %s", o->label, why, LEFT_AS_IS);
		free(why);
		/* that says it all */
		o->noted_noline = true;
	} else {
		for (size_t i = 0; i < k; i++)
			v[idx[i]].chain = res[i];
		if (guess) {
			o->base = mmf_sym_chain_base(&res[k]);
			mmf_sym_chain_free(&res[k]);
		}
	}
	free(res);
	free(idx);
	free(addrs);
}

/* "??:0", "??:?", ":?", "file.c:0": addr2line knows no line there. */
static bool unknown(const struct sym_loc *l)
{
	const char *colon = strrchr(l->where, ':');

	if (!colon || colon == l->where || !strncmp(l->where, "??", 2))
		return true;
	return !strcmp(colon + 1, "?") || !strcmp(colon + 1, "0");
}

char *mmf_sym_strip_base(const char *where, const char *base)
{
	char *p = mmf_xstrdup(where), *q;
	size_t blen = base ? strlen(base) : 0;

	while ((q = strstr(p, "/./")))
		memmove(q, q + 2, strlen(q + 2) + 1);
	if (blen && !strncmp(p, base, blen) && p[blen] == '/')
		memmove(p, p + blen + 1, strlen(p + blen + 1) + 1);
	if (p[0] == '.' && p[1] == '/')
		memmove(p, p + 2, strlen(p + 2) + 1);
	return p;
}

/* A path as the kernel tree names it: without the base, else the build directory. */
static char *pretty(struct mmf_symbolizer *s, struct sym_obj *o, const char *where)
{
	const char *base = s->basepath ? s->basepath : o->base;

	if (!base && where[0] == '/') {
		if (!o->comp_tried) {
			o->comp_dir = mmf_sym_comp_dir(s->readelf, o->path);
			o->comp_tried = true;
		}
		/* "/" as build directory would make absolute paths relative */
		if (o->comp_dir && strcmp(o->comp_dir, "/"))
			base = o->comp_dir;
	}
	return mmf_sym_strip_base(where, base);
}

/*
 * Pass 3: a frame whose call was inlined becomes one line per inlined
 * function, callee first as in the trace, each with the frame's prefix
 * (console timestamp, "? ", "RIP: 0010:"), then the frame itself:
 *
 *    ? helper inc/helper.h:4 [inline]
 *    ? middle+0xc/0x15 t.c:5
 */
static bool write_frame(struct mmf_symbolizer *s, const char *line, const struct req *r,
			struct strbuf *out)
{
	const struct sym_chain *c = &r->chain;
	const struct sym_frame *f = &r->f;
	char *w;

	if (!c->n || unknown(&c->v[c->n - 1])) {
		if (!r->obj->noted_noline)
			mmf_sym_note(s, "%s: addresses without line info, such as %.*s: %s",
				 r->obj->label, (int)(f->sym_end - f->sym), line + f->sym,
				 LEFT_AS_IS);
		r->obj->noted_noline = true;
		return false;
	}
	for (size_t i = 0; i + 1 < c->n; i++) {
		if (unknown(&c->v[i]))
			continue;
		w = pretty(s, r->obj, c->v[i].where);
		mmf_sb_add(out, line, f->sym);
		mmf_sb_printf(out, "%s %s [inline]\n", c->v[i].func, w);
		free(w);
	}
	w = pretty(s, r->obj, c->v[c->n - 1].where);
	mmf_sb_add(out, line, f->sym_end);
	mmf_sb_printf(out, " %s", w);
	mmf_sb_add(out, line + f->sym_end, r->len - f->sym_end);
	free(w);
	return true;
}

int mmf_symbolizer_run(struct mmf_symbolizer *s, const char *text, size_t len, char **out,
		       size_t *out_len)
{
	struct strbuf sb;
	struct req *v;
	size_t n = find_frames(s, text, len, &v), pos = 0;
	int done = 0;

	for (size_t i = 0; i < n; i++)
		if (!v[i].asked)
			ask_group(s, v, n, i);
	mmf_sb_init(&sb);
	for (size_t i = 0; i < n; i++) {
		const char *line = text + v[i].line;

		mmf_sb_add(&sb, text + pos, v[i].line - pos);
		pos = v[i].line;
		if (write_frame(s, line, &v[i], &sb)) {
			done++;
			pos += v[i].len;
		}
		mmf_sym_chain_free(&v[i].chain);
	}
	mmf_sb_add(&sb, text + pos, len - pos);
	free(v);
	if (out_len)
		*out_len = sb.len;
	*out = mmf_sb_detach(&sb);
	return done;
}

int mmf_symbolize(const char *report_text, const struct mmf_sym_opts *o, char **out,
		  char **notes)
{
	struct mmf_symbolizer *s = mmf_symbolizer_new(o, notes);
	int n;

	*out = NULL;
	if (!s)
		return -1;
	n = mmf_symbolizer_run(s, report_text, strlen(report_text), out, NULL);
	*notes = mmf_symbolizer_notes(s);
	mmf_symbolizer_free(s);
	return n;
}
