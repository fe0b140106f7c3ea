// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz/native.h"
#include "oracle/kmsg.h"
#include "util/util.h"

/* One program, its reports' titles written to fd one per line. */
static void run_one(const struct mmf_prog *p, struct mmf_exec_opts *eo, int fd)
{
	struct mmf_exec_result r;

	if (mmf_exec_prog(p, eo, &r))
		_exit(1);
	for (int i = 0; i < r.nr_reports; i++)
		dprintf(fd, "%s\n", r.reports[i].title);
	mmf_exec_result_free(&r);
	_exit(0);
}

static void read_all(int fd, struct strbuf *sb)
{
	char buf[4096];
	ssize_t k;

	while ((k = read(fd, buf, sizeof(buf))) > 0 || (k < 0 && errno == EINTR))
		if (k > 0)
			mmf_sb_add(sb, buf, k);
}

static void kmsg_title(const char *title, const char *text, void *arg)
{
	mmf_sb_printf(arg, "%s\n", title);
}

int mmf_native_titles(const struct mmf_exec_opts *opts, const struct mmf_prog *progs, int n,
		      struct strbuf *titles)
{
	struct mmf_exec_opts eo = *opts;
	size_t len0 = titles->len;
	int fds[2], failed = 0;
	pid_t pids[8];

	if (n > (int)ARRAY_SIZE(pids) || pipe(fds))
		return -1;
	/* One kernel-log reader for the lot, after all of them. */
	eo.kmsg = NULL;
	for (int i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			close(fds[0]);
			run_one(&progs[i], &eo, fds[1]);
		}
		if (pids[i] < 0)
			n = i;
	}
	close(fds[1]);
	/* Read before reaping: many reports could fill the pipe. */
	read_all(fds[0], titles);
	close(fds[0]);
	for (int i = 0; i < n; i++) {
		int st;

		while (waitpid(pids[i], &st, 0) < 0 && errno == EINTR)
			;
		failed |= !WIFEXITED(st) || WEXITSTATUS(st);
	}
	if (opts->kmsg)
		mmf_kmsg_poll(opts->kmsg, kmsg_title, titles);
	return failed && titles->len == len0 ? -1 : 0;
}

int mmf_native_run(void *ctx, const struct mmf_prog *progs, int n, const char *title)
{
	struct strbuf titles;
	char *line, *save;
	int hit = 0;

	mmf_sb_init(&titles);
	if (mmf_native_titles(ctx, progs, n, &titles)) {
		mmf_sb_free(&titles);
		return -1;
	}
	line = titles.len ? strtok_r(titles.buf, "\n", &save) : NULL;
	for (; line; line = strtok_r(NULL, "\n", &save))
		hit |= !strcmp(line, title);
	mmf_sb_free(&titles);
	return hit;
}
