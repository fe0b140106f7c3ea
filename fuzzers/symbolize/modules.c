// SPDX-License-Identifier: GPL-2.0
/*
 * Module files under a directory: a build tree, /lib/modules/<release> or
 * a debug package's /usr/lib/debug/lib/modules/<release>. The walk is done
 * once per symbolizer and directory, not once per frame.
 *
 * The kernel names a module with '_' where its file may have '-'
 * (snd-hda-intel.ko is [snd_hda_intel]), so names are kept with '_'.
 * Symbolic links are not followed (a release's "build" link leads into a
 * whole source tree) and the walk stays on one file system and a few
 * levels deep, so that a vmlinux lying in a big directory costs little.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbolize/internal.h"

#define MAX_DEPTH 8

static const struct suffix {
	const char *text;
	bool packed;
} suffixes[] = {
	{ ".ko", false },
	{ ".ko.debug", false },
	{ ".ko.xz", true },
	{ ".ko.zst", true },
	{ ".ko.gz", true },
};

void mmf_sym_modname_norm(char *name)
{
	for (; *name; name++)
		if (*name == '-')
			*name = '_';
}

static void add(struct sym_modidx *m, const char *dir, const char *file)
{
	size_t len = strlen(file);

	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++) {
		size_t slen = strlen(suffixes[i].text);

		if (!mmf_has_suffix(file, suffixes[i].text))
			continue;
		m->name = mmf_xrealloc(m->name, (m->n + 1) * sizeof(*m->name));
		m->path = mmf_xrealloc(m->path, (m->n + 1) * sizeof(*m->path));
		m->packed = mmf_xrealloc(m->packed, (m->n + 1) * sizeof(*m->packed));
		m->name[m->n] = mmf_xasprintf("%.*s", (int)(len - slen), file);
		mmf_sym_modname_norm(m->name[m->n]);
		m->path[m->n] = mmf_xasprintf("%s/%s", dir, file);
		m->packed[m->n] = suffixes[i].packed;
		m->n++;
		return;
	}
}

static void walk(struct sym_modidx *m, const char *dir, dev_t dev, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;
		char *sub;

		if (de->d_name[0] == '.' && (!de->d_name[1] || !strcmp(de->d_name, "..")))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (S_ISREG(st.st_mode)) {
			add(m, dir, de->d_name);
		} else if (S_ISDIR(st.st_mode) && st.st_dev == dev && depth < MAX_DEPTH) {
			sub = mmf_xasprintf("%s/%s", dir, de->d_name);
			walk(m, sub, dev, depth + 1);
			free(sub);
		}
	}
	closedir(d);
}

void mmf_sym_modidx_add_dir(struct sym_modidx *m, const char *dir)
{
	struct stat st;

	if (!stat(dir, &st) && S_ISDIR(st.st_mode))
		walk(m, dir, st.st_dev, 0);
}

void mmf_sym_modidx_free(struct sym_modidx *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->name[i]);
		free(m->path[i]);
	}
	free(m->name);
	free(m->path);
	free(m->packed);
	memset(m, 0, sizeof(*m));
}
