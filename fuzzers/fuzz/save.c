// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/fuzz.h"
#include "util/util.h"

/* Reports kept per title; later ones are only counted. */
#define MMF_KEEP_REPORTS 10

/* Titles become directory names: keep them readable, drop what a path can't hold. */
static char *slug(const char *title)
{
	char *s = xstrdup(title);

	for (char *p = s; *p; p++)
		if (*p == '/' || *p < ' ' || *p == 0x7f)
			*p = '_';
	if (strlen(s) > 200)
		s[200] = '\0';
	return s;
}

/* Create path exclusively: an existing file is never overwritten. */
static int create_excl(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0)
		return -1;
	if (write_all(fd, data, len) || fsync(fd)) {
		close(fd);
		return -1;
	}
	return close(fd);
}

int mmf_save_report(const char *dir, const char *title, const char *body,
		    const struct mmf_prog *p)
{
	char *s = slug(title), *bug = xasprintf("%s/reports/%s", dir, s);
	struct strbuf prog;
	int n, ret = -1;

	free(s);
	sb_init(&prog);
	mmf_prog_print(p, &prog);
	if (mkdir_p(bug, 0755))
		goto out;
	for (n = 0; n < MMF_KEEP_REPORTS; n++) {
		char *rp = xasprintf("%s/report.%d", bug, n);
		char *pp = xasprintf("%s/prog.%d", bug, n);
		int r = create_excl(rp, body, strlen(body));

		if (!r)
			r = create_excl(pp, prog.buf ? prog.buf : "", prog.len);
		free(rp);
		free(pp);
		if (!r) {
			ret = n;
			break;
		}
		if (errno != EEXIST)
			break;
	}
	if (ret == 0) {
		char *tp = xasprintf("%s/title", bug);
		char *t = xasprintf("%s\n", title);

		create_excl(tp, t, strlen(t));
		free(tp);
		free(t);
	}
out:
	free(bug);
	sb_free(&prog);
	return ret;
}
