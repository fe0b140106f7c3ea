/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel report symbolizer: gives every stack frame of a report its source
 * line, and the functions inlined at that place their own lines, the way
 * the kernel's scripts/decode_stacktrace.sh and syzkaller do:
 *
 *    ? folio_add_lru+0x1f/0x280			becomes
 *    ? __folio_batch_add mm/swap.c:210 [inline]
 *    ? folio_add_lru+0x1f/0x280 mm/swap.c:507
 *
 * Addresses come from the object's symbol table (nm) plus the printed
 * offset, lines from binutils addr2line, run once per object and report
 * (a relocatable .ko once per section) with all its addresses on a pipe.
 * A frame that cannot be symbolized (unknown symbol, no debug info, no
 * module file) is left as printed, and the reason is noted once.
 */
#ifndef MMF_SYMBOLIZE_H
#define MMF_SYMBOLIZE_H

#include <stddef.h>

struct mmf_sym_opts {
	/* ELF with debug info; NULL leaves kernel (non-module) frames alone */
	const char *vmlinux;
	/*
	 * Where "[name]" module frames find name.ko ('-' and '_' alike),
	 * searched recursively; NULL: the vmlinux's directory, as the
	 * kernel script does.
	 */
	const char *modules;
	/* Source tree prefix to strip from paths; NULL: guess (see below). */
	const char *basepath;
	/* Prefix of the binutils commands, e.g. "aarch64-linux-gnu-". */
	const char *cross;
	/* The commands themselves; NULL: cross + "addr2line", "nm", "readelf". */
	const char *addr2line, *nm, *readelf;
};

/*
 * A symbolizer caches each object's symbol table and module lookups, so
 * that a campaign symbolizing many reports reads a vmlinux's symbols once.
 * One symbolizer must not be used by two threads at once.
 *
 * new() fails, with a one-line reason in *err (free it), when a vmlinux or
 * modules directory was given and cannot be read, or is not what it should
 * be (not an ELF file, not a directory).
 */
struct mmf_symbolizer;

struct mmf_symbolizer *mmf_symbolizer_new(const struct mmf_sym_opts *o, char **err);

/*
 * Symbolize text[0, len): *out is the whole text with frame lines
 * rewritten (free it), NUL-terminated, of *out_len bytes if out_len is not
 * NULL (a console log may hold NUL bytes). Returns how many frames got a
 * source line.
 */
int mmf_symbolizer_run(struct mmf_symbolizer *s, const char *text, size_t len, char **out,
		       size_t *out_len);

/*
 * Why frames were left as they were, one reason a line, each reason once
 * in the symbolizer's life; NULL if nothing new since the last call.
 */
char *mmf_symbolizer_notes(struct mmf_symbolizer *s);

void mmf_symbolizer_free(struct mmf_symbolizer *s);

/*
 * One report, one symbolizer: returns the number of frames symbolized and
 * sets *out, or -1 with *out NULL when the symbolizer cannot be made.
 * *notes (free it) gets the notes, or the error line; NULL if none.
 *
 * Paths lose the build's source directory: opts->basepath if given, else
 * for a vmlinux the directory in front of init/main.c in kernel_init's
 * line (as decode_stacktrace.sh guesses), else the object's DWARF
 * compilation directory (readelf), and a leading "./".
 */
int mmf_symbolize(const char *report_text, const struct mmf_sym_opts *o, char **out,
		  char **notes);

#endif
