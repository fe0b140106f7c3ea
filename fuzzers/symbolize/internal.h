/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared between the symbolizer's files, not part of its API.
 *
 * symbolize.c finds the frame lines (frame.c), the object of each frame
 * (objects.c, with elf.c and modules.c), its address (syms.c, from nm),
 * asks addr2line for the lines of all addresses of an object at once
 * (a2l.c) and rewrites the frames. run.c runs the binutils; compdir.c asks
 * readelf where an object was built.
 */
#ifndef MMF_SYMBOLIZE_INTERNAL_H
#define MMF_SYMBOLIZE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbolize/cover.h"
#include "util/focus.h"
#include "util/util.h"

/* frame.c: one frame line, positions relative to the line's start. */
struct sym_frame {
	size_t sym, sym_end;	/* "func+0x1f/0x280" */
	size_t name_len;	/* func is [sym, sym + name_len) */
	uint64_t off, size;
	size_t mod, mod_len;	/* "[mod]" name; mod_len 0: not a module */
	bool exact;		/* a faulting pc, not a return address */
};

/* Whether line[0, len) is a frame line; f filled if so. */
bool mmf_sym_parse_frame(const char *line, size_t len, struct sym_frame *f);

/* run.c: run a command with input on stdin, collecting its output. */
struct sym_proc {
	struct strbuf out;	/* stdout */
	struct strbuf err;	/* stderr, its first 4 KiB */
	int status;		/* as from waitpid() */
};

/* Whether enough output came: the command is then killed. */
typedef bool (*sym_enough_fn)(const struct strbuf *out);

/*
 * argv[0] is looked up in PATH. Returns 0 once the command ran (see
 * p->status, p->out and p->err, to free with mmf_sym_proc_free()), or -errno
 * if it could not be started.
 */
int mmf_sym_run(char *const argv[], const char *in, size_t len, sym_enough_fn enough,
	    struct sym_proc *p);
void mmf_sym_proc_free(struct sym_proc *p);
/* "exit status 1: <first line of stderr>" for a failed run; free it. */
char *mmf_sym_proc_why(const struct sym_proc *p);

/* elf.c */
struct sym_elf {
	bool rel;		/* relocatable (a .ko): sections all at 0 */
	bool debug_line;	/* has a line table */
	uint16_t machine;	/* EM_X86_64, EM_AARCH64, ... */
};

/* 0, or -errno (-ENOEXEC: not an ELF file). */
int mmf_sym_elf_probe(const char *path, struct sym_elf *e);
/* The binutils prefix that reads e on this host: "" or e.g. "aarch64-linux-gnu-". */
const char *mmf_sym_elf_cross(const struct sym_elf *e);

/* syms.c: an object's function symbols, from nm. */
struct sym_ent {
	const char *name;
	uint64_t value, size;
	const char *section;
	size_t idx;		/* nm's order, to keep the first of equals */
};

struct sym_table {
	char *buf;		/* nm's output, the strings point into it */
	struct sym_ent *v;
	size_t n;
};

/* 0, or -1 with a reason in *why (free it). */
int mmf_sym_table_load(const char *nm, const char *path, struct sym_table *t, char **why);
/*
 * The symbol printed as name[0, len) with function size size: of equal
 * names the one of that size, else the first. NULL if none.
 */
const struct sym_ent *mmf_sym_table_find(const struct sym_table *t, const char *name, size_t len,
				     uint64_t size);
void mmf_sym_table_free(struct sym_table *t);

/* a2l.c: what addr2line -f -i says about one address, innermost first. */
struct sym_loc {
	char *func;
	char *where;		/* "path/file.c:123", discriminator dropped */
};

struct sym_chain {
	struct sym_loc *v;
	size_t n;		/* 0: unknown */
};

/*
 * Look all addrs[0, n) up in one addr2line process; section for a
 * relocatable object (NULL otherwise). 0, or -1 with a reason in *why.
 */
int mmf_sym_addr2line(const char *cmd, const char *path, const char *section,
		  const uint64_t *addrs, size_t n, struct sym_chain *out, char **why);
void mmf_sym_chain_free(struct sym_chain *c);

/*
 * symbolize.c: where a kernel was built from, as decode_stacktrace.sh
 * guesses it: the directory in front of init/main.c in kernel_init's
 * chain; NULL if there is none. Free it.
 */
char *mmf_sym_chain_base(const struct sym_chain *c);
/* where without "/./", a leading "./" and "base/" (base may be NULL); free it. */
char *mmf_sym_strip_base(const char *where, const char *base);

/* compdir.c: DW_AT_comp_dir of the object's first compilation unit. */
char *mmf_sym_comp_dir(const char *readelf, const char *path);

/* cache.c: a file of what was learnt about a vmlinux (see there). */
struct sym_cache {
	char *path;		/* NULL: no place to keep one */
	char *stamp;		/* its first line */
};

/* what: "NAME VERSION", e.g. "funcs 1". 0, or -errno if vmlinux cannot be stat'ed. */
int mmf_sym_cache_open(struct sym_cache *c, const char *vmlinux, const char *what);
/* What the file holds after a stamp that matches, NUL-terminated; else NULL. */
char *mmf_sym_cache_get(const struct sym_cache *c);
void mmf_sym_cache_put(const struct sym_cache *c, const char *body, size_t len);
void mmf_sym_cache_free(struct sym_cache *c);

/*
 * focus.c: the functions of a vmlinux's text [_stext, _etext), each with
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

/* focus.c: the file of addr2line's "path:line", tree prefixes dropped; *line its line. */
char *mmf_sym_where_file(const char *where, const char *base, const char *comp_dir,
			 unsigned int *line);

/* cover.c: a report's numbers, for the page (cover_html.c) too. */
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

/* cover_html.c: write the page to c->o->html. 0, or -1 with a reason in *why. */
int mmf_sym_cover_html(const struct sym_cover *c, char **why);

/* modules.c: the module files under some directories. */
struct sym_modidx {
	char **name;		/* module name, '-' as '_' */
	char **path;
	bool *packed;		/* .ko.xz, .ko.zst, .ko.gz: addr2line cannot read it */
	size_t n;
};

void mmf_sym_modidx_add_dir(struct sym_modidx *m, const char *dir);
void mmf_sym_modidx_free(struct sym_modidx *m);
/* Normalise a module name as the index keeps it (in place). */
void mmf_sym_modname_norm(char *name);

/*
 * objects.c: the symbolizer's state: the objects frames are in (the
 * vmlinux, each module's file) with what was learnt about each, and the
 * notes about frames left as they were.
 */
struct sym_obj {
	char *path;
	char *label;			/* "vmlinux PATH", "module NAME (PATH)" */
	bool usable;			/* has a line table */
	bool rel;
	int syms;			/* 0 not read yet, 1 read, -1 failed */
	struct sym_table tab;
	bool base_tried;		/* kernel_init's directory, vmlinux only */
	char *base;
	bool comp_tried;
	char *comp_dir;
	bool noted_unknown, noted_noline;
};

struct sym_modent {
	char *name;
	struct sym_obj *obj;		/* NULL: no usable file */
};

struct mmf_symbolizer {
	char *vmlinux, *modules, *basepath;
	char *addr2line, *nm, *readelf;
	struct sym_obj *vml;
	struct sym_modent *mods;
	size_t nmods;
	struct sym_modidx idx;
	bool idx_done;
	struct strbuf notes;
	char **seen;
	size_t nseen;
};

/* Ends every note about frames not symbolized. */
#define LEFT_AS_IS "its frames are left as they were"

/* Add a note unless the same one was noted before. */
void mmf_sym_note(struct mmf_symbolizer *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The object of a frame, its symbols read; NULL (and noted why) if none. */
struct sym_obj *mmf_sym_frame_obj(struct mmf_symbolizer *s, const char *line,
			      const struct sym_frame *f);

#endif
