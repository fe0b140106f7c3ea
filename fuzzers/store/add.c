// SPDX-License-Identifier: GPL-2.0
/*
 * Adding an occurrence. Under the bug's lock: pick the lowest free slot N,
 * link report.N into place first (it is what makes slot N taken), then the
 * slot's other files, then replace meta. A writer killed before meta is
 * replaced leaves the old meta; the next writer repairs the count from the
 * kept files, so the only thing ever lost is the killed writer's own
 * count when it had no slot.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store/internal.h"

/*
 * Which of the slots 0..keep-1 have any file, and how many reports there
 * are (a floor for the count, whatever the keep limit); also removes the
 * temp files of dead writers (with the lock held, no live writer has any).
 */
static int scan_slots(const char *bugdir, int keep, bool *used, int *reports)
{
	DIR *d = opendir(bugdir);
	struct dirent *e;

	if (!d)
		return -errno;
	*reports = 0;
	while ((e = readdir(d))) {
		unsigned int bit;
		int n;

		if (mmf_is_temp_name(e->d_name)) {
			unlinkat(dirfd(d), e->d_name, 0);
			continue;
		}
		bit = mmf_occ_file(e->d_name, &n);
		if (bit && n < keep)
			used[n] = true;
		*reports += bit == MMF_OCC_REPORT;
	}
	closedir(d);
	return 0;
}

static int put_one(const struct bugdir *b, const char *prefix, int n, const char *suffix,
		   const char *text)
{
	char *path = mmf_xasprintf("%s/%s%d%s", b->path, prefix, n, suffix);
	int ret = mmf_put_new(path, text, strlen(text));

	if (ret)
		mmf_store_fail(ret, "cannot save %s", path);
	free(path);
	return ret;
}

/* Save the occurrence in the first free slot; *n is it, or -1 if none. */
static int save_files(const struct bugdir *b, const struct mmf_crash *c, int keep,
		      const bool *used, int *n)
{
	const struct {
		const char *prefix, *suffix, *text;
	} aux[] = {
		{ "report.", ".sym", c->report_sym },
		{ "log.", "", c->log },
		{ "progs.", "", c->progs },
	};
	int ret = 0;

	for (*n = 0; *n < keep; ++*n) {
		if (used[*n])
			continue;
		ret = put_one(b, "report.", *n, "", c->report ? c->report : "");
		/* Only a writer ignoring the lock gets here: leave its slot. */
		if (ret != -EEXIST)
			break;
	}
	if (*n == keep)
		*n = -1;
	if (ret || *n < 0)
		return ret;
	for (size_t i = 0; i < ARRAY_SIZE(aux) && !ret; i++)
		if (aux[i].text)
			ret = put_one(b, aux[i].prefix, *n, aux[i].suffix, aux[i].text);
	return ret;
}

/* reports: on disk before this one, a floor for the old count. */
static int update_meta(const struct bugdir *b, const struct mmf_crash *c, int reports,
		       struct mmf_store_added *out)
{
	struct meta m;
	int ret;

	mmf_meta_init(&m);
	ret = mmf_meta_read(b->path, &m);
	if (ret) {
		/* Never start a count afresh over a meta we could not read. */
		mmf_meta_free(&m);
		return mmf_store_fail(ret, "cannot read %s/meta", b->path);
	}
	m.count = MAX(m.count, reports);
	mmf_meta_merge(&m, c, c->time ? c->time : time(NULL));
	out->count = m.count;
	ret = mmf_meta_write(b->path, &m);
	mmf_meta_free(&m);
	if (ret)
		return mmf_store_fail(ret, "cannot write %s/meta", b->path);
	ret = mmf_bugdir_sync(b);
	if (ret)
		mmf_store_fail(ret, "cannot sync %s", b->path);
	return ret;
}

int mmf_store_add_keep(const char *dir, const struct mmf_crash *c, int keep,
		       struct mmf_store_added *out)
{
	char *title = c->title ? mmf_store_title(c->title) : NULL;
	struct mmf_store_added dummy;
	struct bugdir b;
	bool *used;
	int ret, ret2, reports = 0;

	if (!out)
		out = &dummy;
	memset(out, 0, sizeof(*out));
	out->index = -1;
	if (!title)
		return mmf_store_msg(-EINVAL, "a crash without a title cannot be stored");
	keep = MAX(keep, 0);
	if (mmf_mkdir_p(dir, 0755)) {
		free(title);
		return mmf_store_fail(errno, "cannot create %s", dir);
	}
	ret = -ENOENT;
	if (c->related) {
		char *rel = mmf_store_title(c->related);

		ret = rel && strcmp(rel, title) ? mmf_bugdir_lock(dir, rel, false, &b) : -ENOENT;
		if (!ret) {
			struct mmf_crash own = { .corrupted = c->corrupted };

			out->related = true;
			snprintf(out->title, sizeof(out->title), "%s", rel);
			ret = mmf_store_alt_add(&b, rel, title, &own);
			if (ret)
				mmf_bugdir_unlock(&b);
		}
		free(rel);
	}
	if (!out->related)
		snprintf(out->title, sizeof(out->title), "%s", title);
	if (ret == -ENOENT)
		ret = mmf_bugdir_lock(dir, title, false, &b);
	if (!out->related && ret == -ENOENT) {
		/* Two writers with a new title each, matching each other's
		 * alternatives at once, may still make two bugs: rare, and
		 * both are then kept whole.
		 */
		char *known = mmf_store_alt_match(dir, title, c);

		ret = mmf_bugdir_lock(dir, known ? known : title, true, &b);
		if (known)
			snprintf(out->title, sizeof(out->title), "%s", known);
		if (!ret)
			ret = mmf_store_alt_add(&b, known ? known : title, title, c);
		if (ret && b.path)
			mmf_bugdir_unlock(&b);
		free(known);
	} else if (!out->related && !ret && c->nr_alt) {
		ret = mmf_store_alt_add(&b, title, title, c);
		if (ret)
			mmf_bugdir_unlock(&b);
	}
	free(title);
	if (ret)
		return ret;
	snprintf(out->name, sizeof(out->name), "%s", b.name);
	out->new_bug = b.created;
	used = mmf_xcalloc(keep + 1, sizeof(*used));
	ret = scan_slots(b.path, keep, used, &reports);
	if (ret) {
		mmf_store_fail(ret, "cannot read %s", b.path);
		goto out;
	}
	ret = save_files(&b, c, keep, used, &out->index);
	/* Count what happened even when its files could not all be saved. */
	ret2 = update_meta(&b, c, reports, out);
	ret = ret ? ret : ret2;
out:
	free(used);
	mmf_bugdir_unlock(&b);
	return ret;
}

int mmf_store_add(const char *dir, const struct mmf_crash *c, struct mmf_store_added *out)
{
	return mmf_store_add_keep(dir, c, MMF_STORE_KEEP, out);
}
