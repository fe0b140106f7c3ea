/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the binutils say about an object, for the symbolizer and for
 * coverage (cover/): run.c runs them, elf.c reads an ELF header, syms.c
 * asks nm for the function symbols, a2l.c addr2line for the lines of many
 * addresses at once, compdir.c readelf where an object was built; cache.c
 * keeps what was learnt about a vmlinux beside it.
 */
#ifndef MMF_SYMBOLIZE_BINUTILS_H
#define MMF_SYMBOLIZE_BINUTILS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/util.h"

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
/*
 * mmf_sym_run() of a command that must succeed: 0 and its output in p, or
 * -1 with "argv[0]: why" in *why (free it) and p freed.
 */
int mmf_sym_run_ok(char *const argv[], struct sym_proc *p, char **why);

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

#endif
