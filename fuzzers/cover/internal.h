/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared between the coverage files, not part of its API: funcs.c (the
 * functions of a vmlinux and the focus made of them), sites.c (the KCOV
 * call sites), report.c (the report per file and function) and html.c (its
 * page).
 */
#ifndef MMF_COVER_INTERNAL_H
#define MMF_COVER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cover/cover.h"
#include "cover/focus.h"
#include "symbolize/binutils.h"
#include "util/util.h"

/*
 * funcs.c: the functions of a vmlinux's text [_stext, _etext), each with
 * the source file it is in, relative to the kernel tree ("mm/memory.c",
 * "?" if the line table does not say).
 */
struct sym_func {
	uint64_t lo, hi;
	const char *file, *name;
};

struct sym_funcs {
	char *buf;		/* the strings point into it */
	struct sym_func *v;	/* sorted by lo */
	size_t n;
	uint64_t stext, etext;
	const char *base;	/* the source tree it was built from, NULL if unknown */
	const char *comp_dir;	/* its build directory, NULL if unknown */
};

/* With the binutils of prefix cross. 0, or -1 with a reason in *why. */
int mmf_sym_funcs_load(const char *cross, const char *vmlinux, struct sym_funcs *fs, char **why);
/* The last function that starts at or before pc (pc may be past its end), NULL if none. */
const struct sym_func *mmf_sym_funcs_before(const struct sym_funcs *fs, uint64_t pc);
/*
 * The focus of spec (see mmf_focus_load()) into f (empty before); sel[i]
 * (if not NULL, fs->n entries) whether function i is in it. 0, or -1 with
 * a reason in *why.
 */
int mmf_sym_focus_select(const struct sym_funcs *fs, const char *spec, struct mmf_focus *f,
			 bool *sel, char **why);
void mmf_sym_funcs_free(struct sym_funcs *fs);
/* Whether vmlinux is a linked ELF file with a line table (e filled), else why not. */
int mmf_sym_cover_probe(const char *vmlinux, struct sym_elf *e, char **why);

/*
 * sites.c: the coverage callbacks of the text: each call of
 * __sanitizer_cov_trace_pc, whose return address (call + len) is the PC
 * KCOV records.
 */
struct sym_site {
	uint64_t call;
	uint32_t len;
};

struct sym_sites {
	struct sym_site *v;	/* sorted by call */
	size_t n;
};

/*
 * The sites in focus f, from objdump over f's ranges, cut at the starts
 * of fs's functions (cached: a later focus disassembles only what no
 * earlier one did). 0, or -1 with a reason in *why.
 */
int mmf_sym_sites_load(const char *cross, const char *vmlinux, const struct sym_funcs *fs,
		       const struct mmf_focus *f, struct sym_sites *s, char **why);
/* The site whose return address is pc, NULL if none. */
const struct sym_site *mmf_sym_site_of(const struct sym_sites *s, uint64_t pc);
/*
 * One line of objdump -d -w: whether it is a call of
 * __sanitizer_cov_trace_pc, and if so where and how long.
 */
bool mmf_sym_parse_site(const char *line, size_t len, struct sym_site *site);
void mmf_sym_sites_free(struct sym_sites *s);

/* funcs.c: the file of addr2line's "path:line", tree prefixes dropped; *line its line. */
char *mmf_sym_where_file(const char *where, const char *base, const char *comp_dir,
			 unsigned int *line);

/* report.c: a report's numbers, for the page (cover_html.c) too. */
struct cover_fn {
	const struct sym_func *fn;
	size_t nsites, ncov;
};

struct cover_file {
	const char *name;
	size_t fn, nfn;		/* its functions: fns[fn, fn + nfn) */
	size_t nsites, ncov;
};

struct sym_cover {
	const struct mmf_cover_opts *o;
	const char *cross;
	struct sym_funcs fs;
	struct mmf_focus focus;
	struct sym_sites sites;	/* the focus's */
	bool *hit;		/* per site: its PC was seen */
	size_t *site_fn;	/* per site: its entry of fns */
	struct cover_fn *fns;	/* with sites, by file, then name */
	size_t nfns;
	struct cover_file *files;
	size_t nfiles;
	size_t focus_fns;	/* functions in the focus, with sites or not */
	/* distinct PCs: all, in the focus, of these at a site, outside the focus */
	size_t pcs, in, at_site, out;
};

/* html.c: write the page to c->o->html. 0, or -1 with a reason in *why. */
int mmf_sym_cover_html(const struct sym_cover *c, char **why);

#endif
