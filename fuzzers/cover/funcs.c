// SPDX-License-Identifier: GPL-2.0
/*
 * The functions of a vmlinux and the source file of each, and the focus
 * made of them.
 *
 * Functions and their sizes come from nm; the file of each from one
 * addr2line over all their start addresses, the outermost frame of its
 * answer (what is inlined at a function's first instruction is in other
 * files, the function itself is not). Static functions of one name in
 * several files are told apart by their addresses. On this project's
 * KASAN kernel (22,000 functions in its text) that takes 7 CPU-seconds,
 * nearly all addr2line's, so the table is cached (cache.c) as text:
 *
 *	base	/src/linux		the source tree (kernel_init's init/main.c)
 *	compdir	/obj/x86_64		the build directory
 *	text	ffffffff81000000	ffffffff82200000
 *	ffffffff8152bb20	ffffffff8152f901	mm/memory.c	do_swap_page
 *
 * Only [_stext, _etext) counts: init text is gone once the kernel runs
 * anything KCOV could see.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cover/cover.h"
#include "cover/internal.h"

#define FUNCS_CACHE "funcs 1"

static int cmp_ent_addr(const void *a, const void *b)
{
	const struct sym_ent *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

char *mmf_sym_where_file(const char *where, const char *base, const char *comp_dir,
			 unsigned int *line)
{
	const char *colon = strrchr(where, ':');
	char *path = colon ? mmf_xasprintf("%.*s", (int)(colon - where), where) :
		     mmf_xstrdup(where), *p;

	if (line) {
		char *end;
		unsigned long l = colon ? strtoul(colon + 1, &end, 10) : 0;

		*line = colon && *end == '\0' && l < UINT32_MAX ? l : 0;
	}
	if (!path[0] || !strcmp(path, "??")) {
		free(path);
		return mmf_xstrdup("?");
	}
	p = mmf_sym_strip_base(path, base);
	if (p[0] == '/' && comp_dir) {
		free(path);
		path = p;
		p = mmf_sym_strip_base(path, comp_dir);
	}
	free(path);
	return p;
}

/* Ask nm and addr2line; the table in the cache's text form into body. */
static int build(const char *cross, const char *vmlinux, struct strbuf *body, char **why)
{
	char *nm = mmf_xasprintf("%snm", cross), *a2l = mmf_xasprintf("%saddr2line", cross);
	char *readelf = mmf_xasprintf("%sreadelf", cross), *base = NULL, *comp_dir = NULL;
	const struct sym_ent *st, *et, *ki;
	struct sym_table tab;
	struct sym_ent *v = NULL;
	struct sym_chain *res = NULL;
	uint64_t *addrs = NULL, lo = UINT64_MAX, hi = 0;
	size_t n = 0;
	int ret = -1;

	if (mmf_sym_table_load(nm, vmlinux, &tab, why))
		goto out;
	st = mmf_sym_table_find(&tab, "_stext", 6, 0);
	et = mmf_sym_table_find(&tab, "_etext", 6, 0);
	ki = mmf_sym_table_find(&tab, "kernel_init", 11, 0);
	if (!st || !et) {
		/* not a kernel: all of its functions */
		for (size_t i = 0; i < tab.n; i++) {
			if (tab.v[i].size) {
				lo = MIN(lo, tab.v[i].value);
				hi = MAX(hi, tab.v[i].value + tab.v[i].size);
			}
		}
	} else {
		lo = st->value;
		hi = et->value;
	}
	v = mmf_xmalloc((tab.n + 1) * sizeof(*v));
	for (size_t i = 0; i < tab.n; i++) {
		const struct sym_ent *e = &tab.v[i];

		if (e->size && e->value >= lo && e->value + e->size <= hi)
			v[n++] = *e;
	}
	qsort(v, n, sizeof(*v), cmp_ent_addr);
	addrs = mmf_xmalloc((n + 1) * sizeof(*addrs));
	for (size_t i = 0; i < n; i++)
		addrs[i] = v[i].value;
	if (ki)
		addrs[n] = ki->value;
	res = mmf_xcalloc(n + 1, sizeof(*res));
	if (mmf_sym_addr2line(a2l, vmlinux, NULL, addrs, n + !!ki, res, why)) {
		free(res);
		res = NULL;
		goto out;
	}
	if (ki)
		base = mmf_sym_chain_base(&res[n]);
	comp_dir = mmf_sym_comp_dir(readelf, vmlinux);
	/* "/" as build directory would make absolute paths relative */
	if (comp_dir && !strcmp(comp_dir, "/")) {
		free(comp_dir);
		comp_dir = NULL;
	}
	if (base)
		mmf_sb_printf(body, "base\t%s\n", base);
	if (comp_dir)
		mmf_sb_printf(body, "compdir\t%s\n", comp_dir);
	mmf_sb_printf(body, "text\t%llx\t%llx\n", (unsigned long long)lo, (unsigned long long)hi);
	for (size_t i = 0; i < n; i++) {
		char *file;

		/* aliases: the first name of each address and size */
		if (i && v[i].value == v[i - 1].value && v[i].size == v[i - 1].size)
			continue;
		file = mmf_sym_where_file(res[i].n ? res[i].v[res[i].n - 1].where : "??", base,
					  comp_dir, NULL);
		mmf_sb_printf(body, "%llx\t%llx\t%s\t%s\n", (unsigned long long)v[i].value,
			      (unsigned long long)(v[i].value + v[i].size), file, v[i].name);
		free(file);
	}
	ret = 0;
out:
	if (res)
		for (size_t i = 0; i < n + !!ki; i++)
			mmf_sym_chain_free(&res[i]);
	free(res);
	free(addrs);
	free(v);
	free(base);
	free(comp_dir);
	mmf_sym_table_free(&tab);
	free(nm);
	free(a2l);
	free(readelf);
	return ret;
}

/* Split line into at most max tab-separated fields, in place. */
static int fields(char *line, char **f, int max)
{
	int n = 0;

	f[n++] = line;
	for (char *p = line; *p && n < max; p++) {
		if (*p == '\t') {
			*p = '\0';
			f[n++] = p + 1;
		}
	}
	return n;
}

static bool hex_field(const char *s, uint64_t *v)
{
	return mmf_parse_hex_u64(s, strlen(s), v);
}

static int cmp_func(const void *a, const void *b)
{
	const struct sym_func *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi > y->hi ? -1 : x->hi < y->hi;
}

/* The cache's text form (fs->buf) into fs; false if it is not that. */
static bool parse(struct sym_funcs *fs)
{
	size_t cap = 0;
	bool text = false;

	for (char *line = fs->buf, *next; *line; line = next) {
		char *f[4];
		int nf;

		next = strchr(line, '\n');
		if (!next)
			return false;
		*next++ = '\0';
		nf = fields(line, f, 4);
		if (nf == 2 && !strcmp(f[0], "base")) {
			fs->base = f[1];
		} else if (nf == 2 && !strcmp(f[0], "compdir")) {
			fs->comp_dir = f[1];
		} else if (nf == 3 && !strcmp(f[0], "text")) {
			text = hex_field(f[1], &fs->stext) && hex_field(f[2], &fs->etext);
		} else if (nf == 4) {
			struct sym_func fn = { .file = f[2], .name = f[3] };

			if (!hex_field(f[0], &fn.lo) || !hex_field(f[1], &fn.hi) || fn.lo >= fn.hi)
				return false;
			if (fs->n == cap) {
				cap = cap ? cap * 2 : 4096;
				fs->v = mmf_xrealloc(fs->v, cap * sizeof(*fs->v));
			}
			fs->v[fs->n++] = fn;
		} else {
			return false;
		}
	}
	qsort(fs->v, fs->n, sizeof(*fs->v), cmp_func);
	return text;
}

int mmf_sym_funcs_load(const char *cross, const char *vmlinux, struct sym_funcs *fs, char **why)
{
	struct sym_cache c;
	struct strbuf body;
	int err;

	memset(fs, 0, sizeof(*fs));
	err = mmf_sym_cache_open(&c, vmlinux, FUNCS_CACHE);
	if (err) {
		*why = mmf_xasprintf("%s: %s", vmlinux, strerror(-err));
		return -1;
	}
	fs->buf = mmf_sym_cache_get(&c);
	if (fs->buf && parse(fs)) {
		mmf_sym_cache_free(&c);
		return 0;
	}
	mmf_sym_funcs_free(fs);
	mmf_sb_init(&body);
	if (build(cross, vmlinux, &body, why)) {
		mmf_sb_free(&body);
		mmf_sym_cache_free(&c);
		return -1;
	}
	mmf_sym_cache_put(&c, body.buf, body.len);
	mmf_sym_cache_free(&c);
	fs->buf = mmf_sb_detach(&body);
	if (!parse(fs)) {
		mmf_sym_funcs_free(fs);
		*why = mmf_xstrdup("function table not understood");
		return -1;
	}
	return 0;
}

const struct sym_func *mmf_sym_funcs_before(const struct sym_funcs *fs, uint64_t pc)
{
	size_t lo = mmf_count_le(fs->v, fs->n, sizeof(*fs->v), offsetof(struct sym_func, lo), pc);

	return lo ? &fs->v[lo - 1] : NULL;
}

void mmf_sym_funcs_free(struct sym_funcs *fs)
{
	free(fs->buf);
	free(fs->v);
	memset(fs, 0, sizeof(*fs));
}

/*
 * The entries of a spec other than "all": paths without "./" in front and
 * "/" behind, "mm" for "mm". NULL-terminated, in one allocation.
 */
static char **spec_entries(const char *spec, char **why)
{
	size_t n = 1, len = strlen(spec);
	char **v, *s;

	for (const char *p = spec; *p; p++)
		n += *p == ',';
	v = mmf_xmalloc((n + 1) * sizeof(*v) + len + 1);
	s = memcpy((char *)(v + n + 1), spec, len + 1);
	n = 0;
	for (char *e = s, *next; e; e = next) {
		size_t l;

		next = strchr(e, ',');
		if (next)
			*next++ = '\0';
		while (*e == ' ')
			e++;
		while (e[0] == '.' && e[1] == '/')
			e += 2;
		l = strlen(e);
		while (l && (e[l - 1] == ' ' || e[l - 1] == '/'))
			e[--l] = '\0';
		if (!l) {
			*why = mmf_xasprintf("focus '%s': an empty file or directory", spec);
			free(v);
			return NULL;
		}
		v[n++] = e;
	}
	v[n] = NULL;
	return v;
}

int mmf_focus_spec_check(const char *spec, char *err, size_t n)
{
	char *why = NULL, **v;

	if (!strcmp(spec, "all"))
		return 0;
	v = spec_entries(spec, &why);
	if (!v) {
		snprintf(err, n, "%s", why);
		free(why);
		return -1;
	}
	free(v);
	return 0;
}

/* A file in entry: the file itself, or one below the directory. */
static bool in_entry(const char *file, const char *e)
{
	size_t l = strlen(e);

	return !strncmp(file, e, l) && (!file[l] || file[l] == '/');
}

int mmf_sym_focus_select(const struct sym_funcs *fs, const char *spec, struct mmf_focus *f,
			 bool *sel, char **why)
{
	uint64_t lo = 0, hi = 0;
	bool run = false;
	char **ents;
	size_t *hits, ne = 0;
	int ret = 0;

	if (!strcmp(spec, "all")) {
		mmf_focus_add(f, fs->stext, fs->etext);
		for (size_t i = 0; sel && i < fs->n; i++)
			sel[i] = true;
		return 0;
	}
	ents = spec_entries(spec, why);
	if (!ents)
		return -1;
	while (ents[ne])
		ne++;
	hits = mmf_xcalloc(ne, sizeof(*hits));
	for (size_t i = 0; i < fs->n; i++) {
		bool in = false;

		for (size_t k = 0; k < ne; k++) {
			if (in_entry(fs->v[i].file, ents[k])) {
				hits[k]++;
				in = true;
			}
		}
		/*
		 * A run of functions of the focus is one range, the padding
		 * between them included: a guest gets tens of ranges, not
		 * thousands.
		 */
		if (in && !run)
			lo = fs->v[i].lo;
		if (in)
			hi = run ? MAX(hi, fs->v[i].hi) : fs->v[i].hi;
		else if (run)
			mmf_focus_add(f, lo, hi);
		run = in;
		if (sel)
			sel[i] = in;
	}
	if (run)
		mmf_focus_add(f, lo, hi);
	mmf_focus_merge(f);
	for (size_t k = 0; k < ne && !ret; k++) {
		if (!hits[k]) {
			*why = mmf_xasprintf("focus '%s': no function of the kernel text is in %s",
					     spec, ents[k]);
			mmf_focus_free(f);
			ret = -1;
		}
	}
	free(hits);
	free(ents);
	return ret;
}

/* The vmlinux's ELF facts, or a reason it cannot serve. */
int mmf_sym_cover_probe(const char *vmlinux, struct sym_elf *e, char **why)
{
	int r = mmf_sym_elf_probe(vmlinux, e);

	if (r)
		*why = mmf_xasprintf("vmlinux %s: %s", vmlinux,
				     r == -ENOEXEC ? "not an ELF file" : strerror(-r));
	else if (e->rel)
		*why = mmf_xasprintf("vmlinux %s: a relocatable object, not a kernel", vmlinux);
	else if (!e->debug_line)
		*why = mmf_xasprintf("vmlinux %s has no debug info (.debug_line)", vmlinux);
	return r || e->rel || !e->debug_line ? -1 : 0;
}

int mmf_focus_load(const char *vmlinux, const char *spec, struct mmf_focus *f, char *err,
		   size_t n)
{
	struct sym_funcs fs;
	struct sym_elf e;
	char *why = NULL;
	int ret = -1;

	memset(f, 0, sizeof(*f));
	if (mmf_sym_cover_probe(vmlinux, &e, &why))
		goto out;
	if (mmf_sym_funcs_load(mmf_sym_elf_cross(&e), vmlinux, &fs, &why))
		goto out;
	ret = mmf_sym_focus_select(&fs, spec, f, NULL, &why);
	mmf_sym_funcs_free(&fs);
out:
	if (why)
		snprintf(err, n, "%s", why);
	free(why);
	return ret;
}

int mmf_text_funcs_load(const char *vmlinux, struct mmf_text_funcs *t, char *err, size_t n)
{
	struct sym_funcs fs;
	struct sym_elf e;
	struct strbuf sb;
	char *why = NULL;
	size_t *at;

	memset(t, 0, sizeof(*t));
	if (mmf_sym_cover_probe(vmlinux, &e, &why) ||
	    mmf_sym_funcs_load(mmf_sym_elf_cross(&e), vmlinux, &fs, &why)) {
		snprintf(err, n, "%s", why);
		free(why);
		return -1;
	}
	/* One buffer of "file\0name\0" pairs, pointed into once it stops moving. */
	mmf_sb_init(&sb);
	at = mmf_xmalloc((fs.n + 1) * sizeof(*at));
	t->v = mmf_xmalloc((fs.n + 1) * sizeof(*t->v));
	for (size_t i = 0; i < fs.n; i++) {
		at[i] = sb.len;
		mmf_sb_add(&sb, fs.v[i].file, strlen(fs.v[i].file) + 1);
		mmf_sb_add(&sb, fs.v[i].name, strlen(fs.v[i].name) + 1);
	}
	t->buf = mmf_sb_detach(&sb);
	for (size_t i = 0; i < fs.n; i++) {
		t->v[i] = (struct mmf_text_func){ .lo = fs.v[i].lo, .hi = fs.v[i].hi,
						  .file = t->buf + at[i] };
		t->v[i].name = t->v[i].file + strlen(t->v[i].file) + 1;
	}
	t->n = fs.n;
	free(at);
	mmf_sym_funcs_free(&fs);
	return 0;
}

void mmf_text_funcs_free(struct mmf_text_funcs *t)
{
	free(t->v);
	free(t->buf);
	memset(t, 0, sizeof(*t));
}
