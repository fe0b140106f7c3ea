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

struct seen {
	const char *title;
	int hit;
};

static void check_title(struct seen *s, const char *title)
{
	s->hit |= !strcmp(s->title, title);
}

static void kmsg_title(const char *title, const char *text, void *arg)
{
	check_title(arg, title);
}

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

static char *read_all(int fd)
{
	struct strbuf sb;
	char buf[4096];
	ssize_t k;

	sb_init(&sb);
	while ((k = read(fd, buf, sizeof(buf))) > 0 || (k < 0 && errno == EINTR))
		if (k > 0)
			sb_add(&sb, buf, k);
	return sb_detach(&sb);
}

int mmf_native_run(void *ctx, const struct mmf_prog *progs, int n, const char *title)
{
	const struct mmf_exec_opts *opts = ctx;
	struct mmf_exec_opts eo = *opts;
	struct seen s = { title, 0 };
	char *out, *line, *save;
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
	out = read_all(fds[0]);
	close(fds[0]);
	for (int i = 0; i < n; i++) {
		int st;

		while (waitpid(pids[i], &st, 0) < 0 && errno == EINTR)
			;
		failed |= !WIFEXITED(st) || WEXITSTATUS(st);
	}
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		check_title(&s, line);
	free(out);
	if (opts->kmsg)
		mmf_kmsg_poll(opts->kmsg, kmsg_title, &s);
	if (failed && !s.hit)
		return -1;
	return s.hit;
}
