/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared between the symbolizer's files, not part of its API.
 *
 * symbolize.c finds the frame lines (frame.c), the object of each frame
 * (objects.c, with elf.c and modules.c), its address (syms.c, from nm),
 * asks addr2line for the lines of all addresses of an object at once
 * (a2l.c) and rewrites the frames; binutils.h is what it shares with
 * coverage.
 */
#ifndef MMF_SYMBOLIZE_INTERNAL_H
#define MMF_SYMBOLIZE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbolize/binutils.h"
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
