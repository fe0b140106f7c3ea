/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel coverage on the host, from a vmlinux and the PCs guests saw: the
 * focus (the text whose PCs count), and the report of which instrumented
 * PCs of the focus were covered, per file and function, as text and as a
 * static page of source lines in syzkaller's /cover manner.
 *
 * The binutils (nm, addr2line, objdump, readelf) do the reading, as for
 * the symbolizer; what they say about a vmlinux is cached beside it
 * (symbolize/cache.c), so only the first run on a vmlinux takes seconds.
 */
#ifndef MMF_COVER_COVER_H
#define MMF_COVER_COVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cover/focus.h"

/*
 * The focus in vmlinux (an ELF file with a line table) into f: spec is
 * "all" (the kernel text, [_stext, _etext)), "mm" (the functions whose
 * source file is under mm/) or a comma-separated list of source files and
 * directories ("mm/madvise.c,mm/swapfile.c", "mm/kasan"); every entry must
 * hold a function. 0, or -1 with a one-line reason in err[n].
 */
int mmf_focus_load(const char *vmlinux, const char *spec, struct mmf_focus *f, char *err,
		   size_t n);
/* What of spec can be checked without a vmlinux; 0 or -1 as above. */
int mmf_focus_spec_check(const char *spec, char *err, size_t n);

/* A function of a vmlinux's text [_stext, _etext) and its source file. */
struct mmf_text_func {
	uint64_t lo, hi;
	const char *file, *name;	/* "mm/madvise.c", "?" if unknown */
};

struct mmf_text_funcs {
	struct mmf_text_func *v;	/* sorted by lo */
	size_t n;
	char *buf;			/* the strings point into it */
};

/* The table the focus is made of (cached); 0, or -1 with err[n]. */
int mmf_text_funcs_load(const char *vmlinux, struct mmf_text_funcs *t, char *err, size_t n);
void mmf_text_funcs_free(struct mmf_text_funcs *t);

/* PCs as KCOV_TRACE_PC records them: return addresses of the callback. */
struct mmf_cover_pcs {
	uint64_t *v;
	size_t n, cap;
};

/*
 * Add the PCs of text[0, len), one hex address a line ("0x" optional),
 * '#' lines and empty ones skipped, name saying where it came from. 0, or
 * -1 with "NAME:LINE: ..." in err[n].
 */
int mmf_cover_pcs_parse(const char *name, const char *text, size_t len, struct mmf_cover_pcs *p,
			char *err, size_t n);
/* The same for the file path ("-": stdin). */
int mmf_cover_pcs_read(const char *path, struct mmf_cover_pcs *p, char *err, size_t n);
/* Sort, and drop duplicates. */
void mmf_cover_pcs_sort(struct mmf_cover_pcs *p);
void mmf_cover_pcs_free(struct mmf_cover_pcs *p);

struct mmf_cover_opts {
	const char *vmlinux;
	const char *focus;	/* spec of mmf_focus_load() */
	const char *html;	/* the page to write; NULL: none */
	/*
	 * The kernel source tree; NULL: the one the vmlinux names
	 * (kernel_init's init/main.c, the build directory's "source" link).
	 */
	const char *source;
	const char *cross;	/* binutils prefix; NULL: what the vmlinux's machine needs */
};

/* Everything that can be wrong before any work. 0 or -1 with err[n]. */
int mmf_cover_check(const struct mmf_cover_opts *o, char *err, size_t n);
/*
 * Print the report of pcs (sorted) to out and write the page. 0, or -1
 * with a one-line reason in err[n].
 */
int mmf_cover_report(const struct mmf_cover_opts *o, const struct mmf_cover_pcs *pcs, FILE *out,
		     char *err, size_t n);

#endif
