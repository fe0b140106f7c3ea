// SPDX-License-Identifier: GPL-2.0
/*
 * Reproducer status and files. A new reproducer goes beside the old ones
 * (repro.prog, repro.1.prog, ... as `mmfuzz repro` names them), never over
 * them: an earlier one may be the one that still works on another kernel.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "store/internal.h"

/* Tries before giving up: a thousand reproducers of one bug is a bug. */
#define MAX_REPROS 1000

static int put_repro(const struct bugdir *b, const char *ext, const char *text)
{
	int ret = -EEXIST;

	if (!text)
		return 0;
	for (int i = 0; ret == -EEXIST && i < MAX_REPROS; i++) {
		char *path = i ? mmf_xasprintf("%s/repro.%d.%s", b->path, i, ext) :
				 mmf_xasprintf("%s/repro.%s", b->path, ext);

		ret = mmf_put_new(path, text, strlen(text));
		if (ret && ret != -EEXIST)
			mmf_store_fail(ret, "cannot save %s", path);
		free(path);
	}
	if (ret == -EEXIST)
		return mmf_store_msg(-EEXIST, "%s: too many reproducers already", b->path);
	return ret;
}

int mmf_store_set_repro(const char *dir, const char *title, const char *status,
			const char *prog, const char *csrc)
{
	char *t = title ? mmf_store_title(title) : NULL, *st;
	struct bugdir b;
	struct meta m;
	int ret;

	st = mmf_meta_value(status);
	if (!t || !*st) {
		free(t);
		free(st);
		return mmf_store_msg(-EINVAL, "a reproducer needs a title and a status");
	}
	ret = mmf_bugdir_lock(dir, t, false, &b);
	free(t);
	if (ret) {
		free(st);
		return ret;
	}
	mmf_meta_init(&m);
	ret = mmf_meta_read(b.path, &m);
	if (ret)
		mmf_store_fail(ret, "cannot read %s/meta", b.path);
	if (!ret)
		ret = put_repro(&b, "prog", prog);
	if (!ret)
		ret = put_repro(&b, "c", csrc);
	if (!ret) {
		free(m.repro);
		m.repro = st;
		st = NULL;
		ret = mmf_meta_write(b.path, &m);
		if (ret)
			mmf_store_fail(ret, "cannot write %s/meta", b.path);
	}
	if (!ret) {
		ret = mmf_bugdir_sync(&b);
		if (ret)
			mmf_store_fail(ret, "cannot sync %s", b.path);
	}
	free(st);
	mmf_meta_free(&m);
	mmf_bugdir_unlock(&b);
	return ret;
}
