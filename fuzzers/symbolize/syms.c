// SPDX-License-Identifier: GPL-2.0
/*
 * Function symbols of an object, from nm, read once and kept sorted by
 * name. The System V format is used because it is the one that gives,
 * besides address and type, the symbol's size and its section: the size
 * tells apart static functions of the same name (the kernel prints
 * "func+off/size", and the one whose size matches is the one), and the
 * section is what an address in a relocatable .ko is relative to.
 *
 * Like decode_stacktrace.sh, text symbols (t, T) count; weak ones (w, W)
 * too when they are functions, as __weak kernel functions are.
 */
#include <stdlib.h>
#include <string.h>

#include "symbolize/binutils.h"

#define NM_FIELDS 7

static char *trim(char *s)
{
	char *e;

	while (*s == ' ')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* One "name|value|class|type|size|line|section" line, split in place. */
static bool parse_line(char *line, struct sym_ent *e)
{
	char *f[NM_FIELDS], *cls, *end;
	int n = 0;

	f[n++] = line;
	for (char *p = line; *p && n < NM_FIELDS; p++) {
		if (*p == '|') {
			*p = '\0';
			f[n++] = p + 1;
		}
	}
	if (n != NM_FIELDS)
		return false;
	cls = trim(f[2]);
	if (strlen(cls) != 1 || !strchr("tTwW", cls[0]))
		return false;
	if ((cls[0] == 'w' || cls[0] == 'W') && strcmp(trim(f[3]), "FUNC"))
		return false;
	e->name = trim(f[0]);
	e->value = strtoull(trim(f[1]), &end, 16);
	if (!*e->name || *end)
		return false;
	e->size = strtoull(trim(f[4]), NULL, 16);
	e->section = trim(f[6]);
	return true;
}

static int cmp_ent(const void *a, const void *b)
{
	const struct sym_ent *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

int mmf_sym_table_load(const char *nm, const char *path, struct sym_table *t, char **why)
{
	char *argv[] = { (char *)nm, "--format=sysv", "-p", "--defined-only", (char *)path, NULL };
	struct sym_proc p;
	size_t cap = 0;
	char *line, *next;

	memset(t, 0, sizeof(*t));
	if (mmf_sym_run_ok(argv, &p, why))
		return -1;
	t->buf = mmf_sb_detach(&p.out);
	mmf_sym_proc_free(&p);
	for (line = t->buf; *line; line = next) {
		struct sym_ent e;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (!parse_line(line, &e))
			continue;
		if (t->n == cap) {
			cap = cap ? cap * 2 : 1024;
			t->v = mmf_xrealloc(t->v, cap * sizeof(*t->v));
		}
		e.idx = t->n;
		t->v[t->n++] = e;
	}
	if (!t->n) {
		*why = mmf_xstrdup("no function symbols (stripped?)");
		mmf_sym_table_free(t);
		return -1;
	}
	qsort(t->v, t->n, sizeof(*t->v), cmp_ent);
	return 0;
}

/* First entry whose name is >= key. */
static size_t lower_bound(const struct sym_table *t, const char *key)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(t->v[mid].name, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct sym_ent *pick(const struct sym_table *t, size_t i, const char *name,
				  size_t len, bool whole, uint64_t size)
{
	const struct sym_ent *first = NULL;

	for (; i < t->n && !strncmp(t->v[i].name, name, len); i++) {
		if (whole && t->v[i].name[len])
			break;
		if (!first)
			first = &t->v[i];
		if (t->v[i].size == size)
			return &t->v[i];
	}
	return first;
}

const struct sym_ent *mmf_sym_table_find(const struct sym_table *t, const char *name, size_t len,
				     uint64_t size)
{
	char *key = mmf_xmalloc(len + sizeof(".llvm."));
	const struct sym_ent *e;

	memcpy(key, name, len);
	key[len] = '\0';
	e = pick(t, lower_bound(t, key), key, len, true, size);
	if (!e) {
		/* clang LTO's "func.llvm.123", which kallsyms prints as "func" */
		strcpy(key + len, ".llvm.");
		e = pick(t, lower_bound(t, key), key, strlen(key), false, size);
	}
	free(key);
	return e;
}

void mmf_sym_table_free(struct sym_table *t)
{
	free(t->buf);
	free(t->v);
	memset(t, 0, sizeof(*t));
}
