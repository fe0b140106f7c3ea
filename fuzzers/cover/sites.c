// SPDX-License-Identifier: GPL-2.0
/*
 * The instrumented PCs of a kernel built with KCOV: every call of
 * __sanitizer_cov_trace_pc, found in objdump's disassembly of the focus
 * only (mm/ is 2.5 of the 18 MiB of text). KCOV records the callback's
 * return address, so a site is kept as its call's address and length.
 * A tail call (jmp) of the callback records the caller's caller and is no
 * site.
 *
 * objdump runs over stretches of at most BATCH bytes, so its output (about
 * 15 bytes per byte of text) stays bounded. The cache (cache.c) holds the
 * ranges disassembled so far, in the focus text form, then "--", then one
 * "CALL LEN" line per site; a later focus disassembles only what is new.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cover/internal.h"

#define SITES_CACHE "sites 1"
#define CALLBACK "<__sanitizer_cov_trace_pc>"
#define BATCH (2u << 20)
/* ranges closer than this are disassembled by one objdump, gap and all */
#define JOIN (64u << 10)

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/*
 * "ffffffff810002c9:\te8 e2 7b 34 00 \tcall   ffffffff81347eb0 <__sanitizer_cov_trace_pc>"
 * "ffff800080010040:\t94000000 \tbl\tffff8000802a1e40 <__sanitizer_cov_trace_pc>"
 */
bool mmf_sym_parse_site(const char *line, size_t len, struct sym_site *site)
{
	const char *p = line, *end = line + len, *colon, *tab;
	size_t digits = 0, cl = strlen(CALLBACK), ml;

	while (end > p && (end[-1] == ' ' || end[-1] == '\r'))
		end--;
	if ((size_t)(end - p) < cl || memcmp(end - cl, CALLBACK, cl))
		return false;
	while (p < end && *p == ' ')
		p++;
	colon = memchr(p, ':', end - p);
	if (!colon || colon[1] != '\t' || !mmf_parse_hex_u64(p, colon - p, &site->call))
		return false;
	p = colon + 2;
	tab = memchr(p, '\t', end - p);
	if (!tab)
		return false;
	for (; p < tab; p++) {
		if (is_hex(*p))
			digits++;
		else if (*p != ' ')
			return false;
	}
	if (!digits || digits % 2)
		return false;
	site->len = digits / 2;
	for (p = tab + 1; p < end && *p == ' '; p++)
		;
	ml = strcspn(p, " \t");
	if (!((ml == 4 && !memcmp(p, "call", 4)) || (ml == 5 && !memcmp(p, "callq", 5)) ||
	      (ml == 2 && !memcmp(p, "bl", 2))))
		return false;
	/* a direct call: the target's address, then the name */
	for (p += ml; p < end && (*p == ' ' || *p == '\t'); p++)
		;
	for (digits = 0; p < end && is_hex(*p); p++)
		digits++;
	return digits && p == end - cl - 1 && *p == ' ';
}

static void add_site(struct sym_sites *s, size_t *cap, const struct sym_site *site)
{
	if (s->n == *cap) {
		*cap = *cap ? *cap * 2 : 4096;
		s->v = mmf_xrealloc(s->v, *cap * sizeof(*s->v));
	}
	s->v[s->n++] = *site;
}

static int cmp_site(const void *a, const void *b)
{
	const struct sym_site *x = a, *y = b;

	return x->call < y->call ? -1 : x->call > y->call;
}

/* One objdump over [lo, hi); the sites in want added to s. */
static int disassemble(const char *objdump, const char *vmlinux, uint64_t lo, uint64_t hi,
		       const struct mmf_focus *want, struct sym_sites *s, size_t *cap, char **why)
{
	char *start = mmf_xasprintf("--start-address=0x%llx", (unsigned long long)lo);
	char *stop = mmf_xasprintf("--stop-address=0x%llx", (unsigned long long)hi);
	char *argv[] = { (char *)objdump, "-d", "-w", start, stop, (char *)vmlinux, NULL };
	struct sym_proc p;
	int err = mmf_sym_run_ok(argv, &p, why);
	const char *out;
	size_t pos = 0;

	free(start);
	free(stop);
	if (err)
		return -1;
	out = p.out.buf ? p.out.buf : "";
	while (pos < p.out.len) {
		const char *nl = memchr(out + pos, '\n', p.out.len - pos);
		size_t l = nl ? (size_t)(nl - out) - pos : p.out.len - pos;
		struct sym_site site;

		if (mmf_sym_parse_site(out + pos, l, &site) && mmf_focus_has(want, site.call))
			add_site(s, cap, &site);
		pos += l + 1;
	}
	mmf_sym_proc_free(&p);
	return 0;
}

/* "CALL LEN" in [line, end). */
static bool cached_site(const char *line, const char *end, struct sym_site *site)
{
	const char *sp = memchr(line, ' ', end - line);
	char *e;

	if (!sp || !mmf_parse_hex_u64(line, sp - line, &site->call))
		return false;
	site->len = strtoul(sp + 1, &e, 10);
	return site->len && e == end;
}

/* The cache's text into done and all; false (both emptied) if it is not that. */
static bool parse_cache(char *text, struct mmf_focus *done, struct sym_sites *all, size_t *cap)
{
	char *sep = strstr(text, "--\n"), err[128];

	if (!sep || (sep != text && sep[-1] != '\n'))
		return false;
	if (mmf_focus_parse(text, sep - text, done, err, sizeof(err)))
		return false;
	for (char *line = sep + 3, *next; *line; line = next) {
		struct sym_site site;

		next = strchr(line, '\n');
		if (!next || !cached_site(line, next, &site)) {
			mmf_focus_free(done);
			mmf_sym_sites_free(all);
			*cap = 0;
			return false;
		}
		add_site(all, cap, &site);
		next++;
	}
	return true;
}

static void put_cache(const struct sym_cache *c, const struct mmf_focus *done,
		      const struct sym_sites *all)
{
	char *ranges = mmf_focus_format(done);
	struct strbuf sb;

	mmf_sb_init(&sb);
	mmf_sb_puts(&sb, ranges);
	mmf_sb_puts(&sb, "--\n");
	for (size_t i = 0; i < all->n; i++)
		mmf_sb_printf(&sb, "%llx %u\n", (unsigned long long)all->v[i].call,
			      all->v[i].len);
	mmf_sym_cache_put(c, sb.buf, sb.len);
	mmf_sb_free(&sb);
	free(ranges);
}

/*
 * Where to end a piece of [lo, hi) that starts at a: the last function
 * start in (a, a + BATCH], else the first after it, else hi. objdump must
 * start at an instruction, and a function's start is one.
 */
static uint64_t piece_end(const struct sym_funcs *fs, uint64_t a, uint64_t hi)
{
	size_t lo;

	if (hi - a <= BATCH)
		return hi;
	/* the first function starting after a + BATCH */
	lo = mmf_count_le(fs->v, fs->n, sizeof(*fs->v), offsetof(struct sym_func, lo), a + BATCH);
	if (lo && fs->v[lo - 1].lo > a)
		return fs->v[lo - 1].lo;
	return lo < fs->n && fs->v[lo].lo < hi ? fs->v[lo].lo : hi;
}

/* Disassemble the ranges of miss, a few at a time, into all. */
static int disassemble_all(const char *objdump, const char *vmlinux, const struct sym_funcs *fs,
			   const struct mmf_focus *miss, struct sym_sites *all, size_t *cap,
			   char **why)
{
	for (size_t i = 0; i < miss->n;) {
		uint64_t lo = miss->v[i].lo, hi = miss->v[i].hi, end;

		for (i++; i < miss->n && miss->v[i].lo - hi < JOIN && miss->v[i].hi - lo <= BATCH;
		     i++)
			hi = miss->v[i].hi;
		for (uint64_t a = lo; a < hi; a = end) {
			end = piece_end(fs, a, hi);
			if (disassemble(objdump, vmlinux, a, end, miss, all, cap, why))
				return -1;
		}
	}
	return 0;
}

int mmf_sym_sites_load(const char *cross, const char *vmlinux, const struct sym_funcs *fs,
		       const struct mmf_focus *f, struct sym_sites *s, char **why)
{
	struct mmf_focus done = { 0 }, miss = { 0 };
	struct sym_sites all = { 0 };
	struct sym_cache c;
	size_t cap = 0, k = 0;
	char *text;
	int err = mmf_sym_cache_open(&c, vmlinux, SITES_CACHE);

	memset(s, 0, sizeof(*s));
	if (err) {
		*why = mmf_xasprintf("%s: %s", vmlinux, strerror(-err));
		return -1;
	}
	text = mmf_sym_cache_get(&c);
	if (text)
		parse_cache(text, &done, &all, &cap);
	free(text);
	mmf_focus_minus(f, &done, &miss);
	if (miss.n) {
		char *objdump = mmf_xasprintf("%sobjdump", cross);

		err = disassemble_all(objdump, vmlinux, fs, &miss, &all, &cap, why);
		free(objdump);
		if (err)
			goto out;
		for (size_t i = 0; i < miss.n; i++)
			mmf_focus_add(&done, miss.v[i].lo, miss.v[i].hi);
		mmf_focus_merge(&done);
		qsort(all.v, all.n, sizeof(*all.v), cmp_site);
		put_cache(&c, &done, &all);
	}
	s->v = mmf_xmalloc((all.n + 1) * sizeof(*s->v));
	for (size_t i = 0; i < all.n; i++)
		if (mmf_focus_has(f, all.v[i].call))
			s->v[k++] = all.v[i];
	s->n = k;
out:
	mmf_sym_sites_free(&all);
	mmf_focus_free(&done);
	mmf_focus_free(&miss);
	mmf_sym_cache_free(&c);
	return err ? -1 : 0;
}

const struct sym_site *mmf_sym_site_of(const struct sym_sites *s, uint64_t pc)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t ret = s->v[mid].call + s->v[mid].len;

		if (ret == pc)
			return &s->v[mid];
		if (ret < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void mmf_sym_sites_free(struct sym_sites *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}
