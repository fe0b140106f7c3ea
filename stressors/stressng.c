// SPDX-License-Identifier: GPL-2.0
/*
 * stress-ng: job profiles of its memory stressors, each run bounded in
 * time, workers and bytes, with --verify and --klog-check, inside the
 * fuzzing cgroup (so the squeeze reaches them too). A failure it detects
 * becomes an mmfuzz report with stress-ng's own message and output.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stressors/stressng.h"
#include "stressors/stressor.h"
#include "sys/cgroup.h"
#include "sys/sysfs.h"

#define MAX_OUTPUT	(256 << 10)
#define EXIT_NOT_SUCCESS 2	/* stress-ng: a stressor failed */

enum { OPT_SECONDS };

static const char *const profiles[][8] = {
	{ "--madvise", "1", "--mremap", "1", "--mremap-bytes", "8M" },
	{ "--mlock", "1", "--mmapfork", "1" },
	{ "--pageswap", "1", "--swap", "1" },
	{ "--vm", "2", "--vm-bytes", "16M", "--vm-madvise", "pageout" },
	{ "--vm", "1", "--vm-bytes", "16M", "--vm-madvise", "mergeable" },
	{ "--userfaultfd", "1", "--fork", "2" },
};

int mmf_stressng_title(const char *out, char *title, size_t n)
{
	const char *l = strstr(out, "fail:"), *end;
	size_t len = 0;

	if (!l || n < 16)
		return 0;
	l += 5;
	while (*l == ' ')
		l++;
	if (*l == '[')	/* the pid */
		l = strchr(l, ']') ? strchr(l, ']') + 1 : l;
	while (*l == ' ')
		l++;
	end = l + strcspn(l, "\n");
	len = snprintf(title, n, "stress-ng: ");
	for (; l < end && len + 1 < n; l++) {
		if (isdigit((unsigned char)*l)) {
			if (!len || title[len - 1] != 'N')
				title[len++] = 'N';
			if (l[0] == '0' && l[1] == 'x')
				l++;
			while (l + 1 < end && isxdigit((unsigned char)l[1]))
				l++;
		} else {
			title[len++] = *l;
		}
	}
	while (len && title[len - 1] == ' ')
		len--;
	title[len] = '\0';
	return 1;
}

static int stressng_setup(struct mmf_stress_ctx *c)
{
	char *path = getenv("PATH"), *copy, *dir, *save;
	int found = 0;

	copy = xstrdup(path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/stress-ng", dir);

		found = !access(p, X_OK);
		free(p);
	}
	free(copy);
	if (!found)
		return mmf_sys_fail(ENOENT, "stress-ng: not installed");
	return 0;
}

static void __attribute__((noreturn)) child(struct mmf_stress_ctx *c, int out, char **argv)
{
	char path[PATH_MAX];
	int fd;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (c->t->cg) {
		snprintf(path, sizeof(path), "%s/cgroup.procs", mmf_cg_path(c->t->cg));
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd >= 0) {
			dprintf(fd, "%d\n", getpid());
			close(fd);
		}
	}
	dup2(out, 1);
	dup2(out, 2);
	execvp("stress-ng", argv);
	_exit(127);
}

static int stressng_step(struct mmf_stress_ctx *c)
{
	const char *const *prof = profiles[mmf_rand_below(&c->rnd, ARRAY_SIZE(profiles))];
	char *argv[24], secs[32], title[256], buf[4096];
	char *tmp = xasprintf("%s/stress-ng", c->t->out);
	struct strbuf out;
	int p[2], st, argc = 0, ret = 0;
	ssize_t got;
	pid_t pid;

	mkdir(tmp, 0700);
	snprintf(secs, sizeof(secs), "%llds", (long long)c->opt[OPT_SECONDS]);
	argv[argc++] = "stress-ng";
	for (int i = 0; i < 8 && prof[i]; i++)
		argv[argc++] = (char *)prof[i];
	argv[argc++] = "--timeout";
	argv[argc++] = secs;
	argv[argc++] = "--verify";
	argv[argc++] = "--klog-check";
	argv[argc++] = "--temp-path";
	argv[argc++] = tmp;
	argv[argc] = NULL;
	if (pipe2(p, O_CLOEXEC)) {
		free(tmp);
		return mmf_sys_fail(errno, "stress-ng: pipe");
	}
	pid = fork();
	if (pid == 0)
		child(c, p[1], argv);
	close(p[1]);
	sb_init(&out);
	while (pid > 0 && (got = read(p[0], buf, sizeof(buf))) != 0) {
		if (got > 0 && out.len < MAX_OUTPUT)
			sb_add(&out, buf, got);
		else if (got < 0 && errno != EINTR)
			break;
	}
	close(p[0]);
	if (pid < 0)
		ret = mmf_sys_fail(errno, "stress-ng: fork");
	else if (waitpid(pid, &st, 0) < 0)
		ret = mmf_sys_fail(errno, "stress-ng: wait");
	else if (out.buf && (WEXITSTATUS(st) == EXIT_NOT_SUCCESS ||
			     mmf_stressng_title(out.buf, title, sizeof(title)))) {
		if (!mmf_stressng_title(out.buf, title, sizeof(title)))
			snprintf(title, sizeof(title), "stress-ng: %s failed", prof[0] + 2);
		if (c->t->report)
			c->t->report(c->t->report_arg, title, out.buf);
	} else if (WIFEXITED(st) && WEXITSTATUS(st) == 1) {
		ret = mmf_sys_fail(EINVAL, "stress-ng %s: exit status 1", prof[0]);
	}
	sb_free(&out);
	free(tmp);
	return ret;
}

const struct mmf_stressor_info mmf_stressor_stressng = {
	.name = "stressng",
	.help = "stress-ng profiles (madvise, mlock, mmapfork, mremap, pageswap, swap, vm, "
		"userfaultfd, fork) with --verify --klog-check; failures become reports",
	.period_ms = 1000,
	.opts = {
		{ "seconds", "length of one stress-ng run", 10, 1, 3600 },
	},
	.setup = stressng_setup,
	.step = stressng_step,
};
