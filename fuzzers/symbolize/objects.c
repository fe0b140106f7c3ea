// SPDX-License-Identifier: GPL-2.0
/*
 * The objects frames are in: the vmlinux given, and each module's file,
 * found once by name and kept (or its absence) for the symbolizer's life,
 * with its symbol table, read from nm when a frame first needs it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbolize/internal.h"
#include "symbolize/symbolize.h"

void mmf_sym_note(struct mmf_symbolizer *s, const char *fmt, ...)
{
	va_list ap;
	char *note;

	va_start(ap, fmt);
	note = mmf_xvasprintf(fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < s->nseen; i++) {
		if (!strcmp(s->seen[i], note)) {
			free(note);
			return;
		}
	}
	mmf_sb_printf(&s->notes, "%s\n", note);
	s->seen = mmf_xrealloc(s->seen, (s->nseen + 1) * sizeof(*s->seen));
	s->seen[s->nseen++] = note;
}

static char *dup_or_null(const char *s)
{
	return s ? mmf_xstrdup(s) : NULL;
}

static struct sym_obj *obj_new(const char *path, char *label, const struct sym_elf *e)
{
	struct sym_obj *o = mmf_xcalloc(1, sizeof(*o));

	o->path = mmf_xstrdup(path);
	o->label = label;
	o->usable = e->debug_line;
	o->rel = e->rel;
	return o;
}

static void obj_free(struct sym_obj *o)
{
	if (!o)
		return;
	free(o->path);
	free(o->label);
	mmf_sym_table_free(&o->tab);
	free(o->base);
	free(o->comp_dir);
	free(o);
}

static char *tool(const struct mmf_sym_opts *o, const char *given, const char *name)
{
	return given ? mmf_xstrdup(given) : mmf_xasprintf("%s%s", o->cross ? o->cross : "", name);
}

/* 0, or the errno that says why path is no directory we can search. */
static int dir_readable(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return errno;
	if (!S_ISDIR(st.st_mode))
		return ENOTDIR;
	return access(path, R_OK | X_OK) ? errno : 0;
}

struct mmf_symbolizer *mmf_symbolizer_new(const struct mmf_sym_opts *o, char **err)
{
	struct mmf_symbolizer *s;
	struct sym_elf e;
	int r;

	*err = NULL;
	if (o->vmlinux) {
		r = mmf_sym_elf_probe(o->vmlinux, &e);
		if (r) {
			*err = mmf_xasprintf("vmlinux %s: %s", o->vmlinux,
					 r == -ENOEXEC ? "not an ELF file" : strerror(-r));
			return NULL;
		}
	}
	if (o->modules) {
		r = dir_readable(o->modules);
		if (r) {
			*err = mmf_xasprintf("modules %s: %s", o->modules, strerror(r));
			return NULL;
		}
	}
	s = mmf_xcalloc(1, sizeof(*s));
	s->vmlinux = dup_or_null(o->vmlinux);
	s->modules = dup_or_null(o->modules);
	s->basepath = dup_or_null(o->basepath);
	if (s->basepath) {
		size_t n = strlen(s->basepath);

		while (n > 1 && s->basepath[n - 1] == '/')
			s->basepath[--n] = '\0';
	}
	s->addr2line = tool(o, o->addr2line, "addr2line");
	s->nm = tool(o, o->nm, "nm");
	s->readelf = tool(o, o->readelf, "readelf");
	if (o->vmlinux)
		s->vml = obj_new(o->vmlinux, mmf_xasprintf("vmlinux %s", o->vmlinux), &e);
	mmf_sb_init(&s->notes);
	return s;
}

void mmf_symbolizer_free(struct mmf_symbolizer *s)
{
	if (!s)
		return;
	free(s->vmlinux);
	free(s->modules);
	free(s->basepath);
	free(s->addr2line);
	free(s->nm);
	free(s->readelf);
	obj_free(s->vml);
	for (size_t i = 0; i < s->nmods; i++) {
		free(s->mods[i].name);
		obj_free(s->mods[i].obj);
	}
	free(s->mods);
	mmf_sym_modidx_free(&s->idx);
	mmf_sb_free(&s->notes);
	for (size_t i = 0; i < s->nseen; i++)
		free(s->seen[i]);
	free(s->seen);
	free(s);
}

char *mmf_symbolizer_notes(struct mmf_symbolizer *s)
{
	return s->notes.len ? mmf_sb_detach(&s->notes) : NULL;
}

/* Where module files are looked for: --modules, else beside the vmlinux. */
static char *module_dir(const struct mmf_symbolizer *s)
{
	const char *slash;

	if (s->modules)
		return mmf_xstrdup(s->modules);
	if (!s->vmlinux)
		return NULL;
	slash = strrchr(s->vmlinux, '/');
	if (!slash)
		return mmf_xstrdup(".");
	/* never the whole file system for a vmlinux at / */
	if (slash == s->vmlinux)
		return NULL;
	return mmf_xasprintf("%.*s", (int)(slash - s->vmlinux), s->vmlinux);
}

/* Why no file of a module could be used. */
static void note_missing(struct mmf_symbolizer *s, const char *name, const char *dir,
			 const char *nodebug, const char *packed)
{
	if (nodebug)
		mmf_sym_note(s, "module %s: %s has no debug info (.debug_line): %s", name, nodebug,
			 LEFT_AS_IS);
	else if (packed)
		mmf_sym_note(s, "module %s: %s is compressed: %s", name, packed, LEFT_AS_IS);
	else if (dir)
		mmf_sym_note(s, "module %s: no %s.ko under %s: %s", name, name, dir, LEFT_AS_IS);
	else
		mmf_sym_note(s, "module %s: no modules directory (--modules): %s", name, LEFT_AS_IS);
}

/* The first file of the module with a line table, as the kernel script picks. */
static struct sym_obj *find_module(struct mmf_symbolizer *s, const char *name)
{
	const char *packed = NULL, *nodebug = NULL;
	char *dir = module_dir(s);
	struct sym_obj *o = NULL;

	if (!s->idx_done && dir)
		mmf_sym_modidx_add_dir(&s->idx, dir);
	s->idx_done = true;
	for (size_t i = 0; i < s->idx.n && !o; i++) {
		const char *path = s->idx.path[i];
		struct sym_elf e;

		if (strcmp(s->idx.name[i], name))
			continue;
		if (s->idx.packed[i]) {
			packed = path;
		} else if (!mmf_sym_elf_probe(path, &e)) {
			if (e.debug_line)
				o = obj_new(path, mmf_xasprintf("module %s (%s)", name, path), &e);
			else
				nodebug = path;
		}
	}
	if (!o)
		note_missing(s, name, dir, nodebug, packed);
	free(dir);
	return o;
}

static struct sym_obj *module_obj(struct mmf_symbolizer *s, const char *line,
				  const struct sym_frame *f)
{
	char *name = mmf_xasprintf("%.*s", (int)f->mod_len, line + f->mod);
	struct sym_modent *m;

	mmf_sym_modname_norm(name);
	for (size_t i = 0; i < s->nmods; i++) {
		if (!strcmp(s->mods[i].name, name)) {
			free(name);
			return s->mods[i].obj;
		}
	}
	s->mods = mmf_xrealloc(s->mods, (s->nmods + 1) * sizeof(*s->mods));
	m = &s->mods[s->nmods++];
	m->name = name;
	m->obj = find_module(s, name);
	return m->obj;
}

struct sym_obj *mmf_sym_frame_obj(struct mmf_symbolizer *s, const char *line,
			      const struct sym_frame *f)
{
	struct sym_obj *o = f->mod_len ? module_obj(s, line, f) : s->vml;
	char *why;

	if (!o) {
		if (!f->mod_len)
			mmf_sym_note(s, "no vmlinux given: %s", LEFT_AS_IS);
		return NULL;
	}
	if (!o->usable) {
		mmf_sym_note(s, "%s has no debug info (.debug_line): %s", o->label, LEFT_AS_IS);
		return NULL;
	}
	if (!o->syms) {
		o->syms = mmf_sym_table_load(s->nm, o->path, &o->tab, &why) ? -1 : 1;
		if (o->syms < 0) {
			mmf_sym_note(s, "%s: %s: %s", o->label, why, LEFT_AS_IS);
			free(why);
		}
	}
	return o->syms > 0 ? o : NULL;
}
