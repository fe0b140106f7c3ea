// SPDX-License-Identifier: GPL-2.0
/*
 * addr2line, once for all addresses of an object: loading a vmlinux's
 * DWARF takes seconds, looking an address up takes microseconds.
 *
 * With -a each answer starts with the address ("0x..."), which no
 * function name can look like, so answers of any number of lines (-i adds
 * one function/location pair per inlined call) are told apart:
 *
 *   0x000000000000115b
 *   helper                      innermost: the inlined function...
 *   /src/inc/helper.h:4         ...and where in it
 *   middle                      the function it was inlined into...
 *   /src/t.c:5                  ...and the line of the inlined call
 */
#include <stdlib.h>
#include <string.h>

#include "symbolize/binutils.h"

static bool is_addr_line(const char *s, size_t n)
{
	if (n < 3 || s[0] != '0' || s[1] != 'x')
		return false;
	for (size_t i = 2; i < n; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]))
			return false;
	return true;
}

static char *dupn(const char *s, size_t n)
{
	char *d = mmf_xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* "file.c:12 (discriminator 3)" loses the discriminator: noise in reports. */
static char *location(const char *s, size_t n)
{
	const char *d = memmem(s, n, " (discriminator ", 16);

	return dupn(s, d ? (size_t)(d - s) : n);
}

static void add_loc(struct sym_chain *c, const char *func, size_t flen, const char *where,
		    size_t wlen)
{
	c->v = mmf_xrealloc(c->v, (c->n + 1) * sizeof(*c->v));
	c->v[c->n].func = dupn(func, flen);
	c->v[c->n].where = location(where, wlen);
	c->n++;
}

/* Split addr2line's output into one chain per address; false if garbled. */
static bool parse(const char *s, size_t n, struct sym_chain *out, size_t naddr)
{
	size_t i = 0, k = 0;
	const char *func = NULL;
	size_t flen = 0;

	while (i < n) {
		const char *nl = memchr(s + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - s) : n, len = end - i;

		if (!func && is_addr_line(s + i, len)) {
			if (k == naddr)
				return false;
			k++;
		} else if (!k) {
			return false;
		} else if (!func) {
			func = s + i;
			flen = len;
		} else {
			add_loc(&out[k - 1], func, flen, s + i, len);
			func = NULL;
		}
		i = end + 1;
	}
	return k == naddr && !func;
}

int mmf_sym_addr2line(const char *cmd, const char *path, const char *section,
		  const uint64_t *addrs, size_t n, struct sym_chain *out, char **why)
{
	char *argv[] = { (char *)cmd, "-a", "-f", "-i", "-e", (char *)path,
			 section ? "-j" : NULL, (char *)section, NULL };
	struct strbuf in;
	struct sym_proc p;
	int err;

	memset(out, 0, n * sizeof(*out));
	mmf_sb_init(&in);
	for (size_t i = 0; i < n; i++)
		mmf_sb_printf(&in, "0x%llx\n", (unsigned long long)addrs[i]);
	err = mmf_sym_run(argv, in.buf, in.len, NULL, &p);
	mmf_sb_free(&in);
	if (err) {
		*why = mmf_xasprintf("%s: %s", cmd, strerror(-err));
		return -1;
	}
	if (p.status || !parse(p.out.buf ? p.out.buf : "", p.out.len, out, n)) {
		char *w = p.status ? mmf_sym_proc_why(&p) : mmf_xstrdup("output not understood");

		*why = mmf_xasprintf("%s: %s", cmd, w);
		free(w);
		for (size_t i = 0; i < n; i++)
			mmf_sym_chain_free(&out[i]);
		mmf_sym_proc_free(&p);
		return -1;
	}
	mmf_sym_proc_free(&p);
	return 0;
}

void mmf_sym_chain_free(struct sym_chain *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].func);
		free(c->v[i].where);
	}
	free(c->v);
	c->v = NULL;
	c->n = 0;
}
