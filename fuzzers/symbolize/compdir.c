// SPDX-License-Identifier: GPL-2.0
/*
 * Where an object was compiled: DW_AT_comp_dir of its first compilation
 * unit, which addr2line puts in front of every relative source path. A
 * kernel is built from the top of its tree, so this is the prefix to
 * strip when no better guess exists.
 *
 * readelf prints the first unit at once; it is stopped as soon as the
 * attribute is seen, rather than left dumping a vmlinux's gigabytes.
 */
#include <stdlib.h>
#include <string.h>

#include "symbolize/binutils.h"

static const char attr[] = "DW_AT_comp_dir";

static const char *find_attr(const struct strbuf *out)
{
	const char *a = out->buf ? strstr(out->buf, attr) : NULL;

	return a && strchr(a, '\n') ? a : NULL;
}

static bool enough(const struct strbuf *out)
{
	return find_attr(out) != NULL;
}

char *mmf_sym_comp_dir(const char *readelf, const char *path)
{
	char *argv[] = { (char *)readelf, "--debug-dump=info", "--dwarf-depth=1", (char *)path,
			 NULL };
	const char *a, *v, *end;
	struct sym_proc p;
	char *dir = NULL;

	if (mmf_sym_run(argv, NULL, 0, enough, &p))
		return NULL;
	a = find_attr(&p.out);
	if (a) {
		/* "DW_AT_comp_dir : /src" or ": (indirect line string, offset: 0): /src" */
		end = strchr(a, '\n');
		v = memchr(a, ':', end - a);
		if (v && end - v > 2 && v[2] == '(') {
			for (const char *q = v + 1; q + 2 < end; q++)
				if (q[0] == ')' && q[1] == ':' && q[2] == ' ')
					v = q + 1;
		}
		if (v) {
			for (v++; v < end && (*v == ' ' || *v == '\t'); v++)
				;
			while (end > v && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
				end--;
			if (end > v && *v == '/') {
				dir = mmf_xmalloc(end - v + 1);
				memcpy(dir, v, end - v);
				dir[end - v] = '\0';
			}
		}
	}
	mmf_sym_proc_free(&p);
	return dir;
}
