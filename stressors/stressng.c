// SPDX-License-Identifier: GPL-2.0
/*
 * stress-ng: job profiles of its memory stressors, each run bounded in
 * time, workers and bytes, with --verify and --klog-check, in a cgroup of
 * its own that bounds its memory (in the fuzzing cgroup it would starve the
 * fuzzer and itself into the OOM killer). A verification
 * failure ("fail:") or a kernel message --klog-check flags, unless we
 * provoked it, becomes an mmfuzz report with stress-ng's own message and
 * output. Its exit status alone is no finding: it fails for the benign
 * messages too.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stressors/memcg.h"
#include "stressors/stressng.h"
#include "stressors/stressor.h"
#include "sys/cgroup.h"
#include "sys/journal.h"
#include "sys/swapdev.h"
#include "sys/sysfs.h"

#define MAX_OUTPUT	(256 << 10)
/* How long an undo waits for a killed stress-ng to be gone. */
#define GONE_WAIT_MS	30000

enum { OPT_SECONDS, OPT_MB, OPT_PROFILE };

/*
 * No mmapfork: it sizes its maps by the machine's free memory, not the
 * cgroup's, and ignores --timeout while mapping (24 s for a 2 s run on a
 * 24 GiB host).
 */
static const char *const profiles[][8] = {
	{ "--madvise", "1", "--mremap", "1", "--mremap-bytes", "8M" },
	{ "--mlock", "1", "--fork", "2", "--fork-vm" },
	{ "--pageswap", "1", "--swap", "1" },
	{ "--vm", "2", "--vm-bytes", "16M", "--vm-madvise", "pageout" },
	{ "--vm", "1", "--vm-bytes", "16M", "--vm-madvise", "mergeable" },
	{ "--userfaultfd", "1", "--fork", "2" },
};

/*
 * Kernel messages that --klog-check calls errors but that our own stress
 * provokes: the swap stressor's broken signatures, OOM kills in the
 * squeezed cgroup.
 */
static const char *const benign[] = {
	"swap-space signature", "Empty swap-file", "out of memory", "oom-kill", "oom_reaper",
	"Killed process",
};

static bool is_benign(const char *l, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(benign); i++)
		if (memmem(l, n, benign[i], strlen(benign[i])))
			return true;
	return false;
}

/* Skip spaces, then one bracketed field ("[1234]", "[123.456]"), then spaces. */
static const char *skip_bracket(const char *l)
{
	l += strspn(l, " ");
	if (*l == '[' && strchr(l, ']'))
		l = strchr(l, ']') + 1;
	return l + strspn(l, " '");
}

/* Append msg[0..end) to title, numbers written as N. */
static void append_sanitized(char *title, size_t n, size_t len, const char *l, const char *end)
{
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
	while (len && (title[len - 1] == ' ' || title[len - 1] == '\''))
		len--;
	title[len] = '\0';
}

int mmf_stressng_title(const char *out, char *title, size_t n)
{
	for (const char *l = out; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		size_t len = strcspn(l, "\n");
		const char *end = l + len, *m;

		m = memmem(l, len, "fail:", 5);
		if (m) {
			m = skip_bracket(m + 5);
			append_sanitized(title, n, snprintf(title, n, "stress-ng: "), m, end);
			return 1;
		}
		m = memmem(l, len, "klog-check: error:", 18);
		if (m && !is_benign(l, len)) {
			m = skip_bracket(m + 18);
			append_sanitized(title, n, snprintf(title, n, "stress-ng: klog-check: "), m,
					 end);
			return 1;
		}
	}
	return 0;
}

static int stressng_setup(struct mmf_stress_ctx *c)
{
	char *path = getenv("PATH"), *copy, *dir, *save;
	struct mmf_cgroup *cg = NULL;
	int found = 0, r;

	copy = mmf_xstrdup(path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *p = mmf_xasprintf("%s/stress-ng", dir);

		found = !access(p, X_OK);
		free(p);
	}
	free(copy);
	if (!found)
		return mmf_sys_fail(ENOENT, "stress-ng: not installed");
	r = mmf_memcg_make(c->t->j, "stressng", c->opt[OPT_MB] << 20, &cg);
	c->priv = cg;
	return r;
}

/* Whether a process of group pgid that is ours (stress-ng or its supervisor) lives. */
static bool group_lives(pid_t pgid)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	bool lives = false;

	while (d && !lives && (e = readdir(d))) {
		char path[300], *stat, *p, comm[32] = "", state = 0;
		int pgrp = 0;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		stat = mmf_read_text(path);
		p = stat ? strrchr(stat, ')') : NULL;
		if (p && sscanf(p + 1, " %c %*d %d", &state, &pgrp) == 2 && pgrp == pgid &&
		    state != 'Z') {
			sscanf(strchr(stat, '(') + 1, "%31[^)]", comm);
			lives = !strncmp(comm, "stress-ng", 9) || !strcmp(comm, "mmfuzz");
		}
		free(stat);
	}
	if (d)
		closedir(d);
	return lives;
}

/*
 * The swap stressor swaps files in its temp dir on: after a SIGKILL of the
 * run they stay on until stress-ng, killed by its supervisor, is gone and
 * somebody swaps them off. Key: the temp dir; arg: the supervisor's group.
 */
static int swaps_undo(const char *dir, const char *arg)
{
	pid_t pgid = arg ? atoi(arg) : 0;
	struct mmf_swap_info *v;
	size_t len = strlen(dir);
	int n, ret = MMF_UNDO_GONE;

	for (int ms = 0; pgid > 0 && group_lives(pgid) && ms < GONE_WAIT_MS; ms += 100)
		usleep(100 * 1000);
	n = mmf_swap_list(&v);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		int r;

		if (strncmp(v[i].path, dir, len) || v[i].path[len] != '/')
			continue;
		r = mmf_swapoff(v[i].path);
		if (r < 0 && ret >= 0)
			ret = r;
		else if (!r && ret == MMF_UNDO_GONE)
			ret = MMF_UNDO_DONE;
	}
	free(v);
	return ret;
}

static void swaps_describe(struct strbuf *sb, const char *dir, const char *arg)
{
	mmf_sb_printf(sb, "swapoff stress-ng's swap files in %s", dir);
}

static const struct mmf_journal_kind jk_stressng_swaps = {
	.name = "stressng-swaps",
	.check = mmf_journal_check_path,
	.undo = swaps_undo,
	.describe = swaps_describe,
};
MMF_JOURNAL_KIND(jk_stressng_swaps);

static void stressng_teardown(struct mmf_stress_ctx *c)
{
	mmf_cg_destroy(c->priv);
}

static volatile sig_atomic_t got_sig;

static void on_sig(int sig)
{
	got_sig = sig;
}

/*
 * Between the runner and stress-ng, a supervisor in a process group of its
 * own: when the runner dies (SIGKILL of the run), it kills the whole group,
 * which SIGKILL of stress-ng alone would not do (its klog monitor lives on).
 * A SIGTERM, the run's orderly end, goes to stress-ng, which stops its
 * workers itself.
 */
static void __attribute__((noreturn)) supervise(struct mmf_stress_ctx *c, int out, char **argv,
						pid_t parent)
{
	struct sigaction sa = { .sa_handler = on_sig };
	char path[PATH_MAX];
	pid_t pid;
	int fd, st;

	setpgid(0, 0);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	mmf_die_with_parent(parent, SIGHUP, 0);
	snprintf(path, sizeof(path), "%s/cgroup.procs", mmf_cg_path(c->priv));
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || dprintf(fd, "%d\n", getpid()) < 0)
		_exit(126);	/* unbounded otherwise */
	close(fd);
	pid = fork();
	if (pid == 0) {
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		dup2(out, 1);
		dup2(out, 2);
		execvp("stress-ng", argv);
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR || got_sig == SIGHUP)
			kill(0, SIGKILL);
		if (got_sig == SIGTERM)
			kill(pid, SIGTERM);
		got_sig = 0;
	}
	_exit(pid < 0 ? 127 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

static int stressng_step(struct mmf_stress_ctx *c)
{
	const char *const *prof = profiles[c->opt[OPT_PROFILE] ? (uint64_t)c->opt[OPT_PROFILE] - 1 :
					   mmf_rand_below(&c->rnd, ARRAY_SIZE(profiles))];
	char *argv[24], secs[32], pgid[16], title[256], buf[4096];
	char *tmp = mmf_xasprintf("%s/stress-ng", c->t->out);
	struct strbuf out;
	int p[2], st, argc = 0, ret = 0, stopped = 0;
	ssize_t got;
	pid_t pid, parent;

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
	parent = getpid();
	pid = fork();
	if (pid == 0)
		supervise(c, p[1], argv, parent);
	close(p[1]);
	if (pid > 0) {
		snprintf(pgid, sizeof(pgid), "%d", (int)pid);
		setpgid(pid, pid);	/* the group the record names, whoever runs first */
		ret = mmf_journal_add(c->t->j, &jk_stressng_swaps, tmp, pgid);
	}
	mmf_sb_init(&out);
	while (pid > 0) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };

		/* At the run's end stress-ng stops too: SIGTERM, it reaps its workers. */
		if (mmf_stress_stopping() && !stopped++)
			kill(pid, SIGTERM);
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		got = read(p[0], buf, sizeof(buf));
		if (got == 0 || (got < 0 && errno != EINTR))
			break;
		if (got > 0 && out.len < MAX_OUTPUT)
			mmf_sb_add(&out, buf, got);
	}
	close(p[0]);
	if (pid < 0)
		ret = mmf_sys_fail(errno, "stress-ng: fork");
	else if (waitpid(pid, &st, 0) < 0)
		ret = mmf_sys_fail(errno, "stress-ng: wait");
	else if (out.buf && mmf_stressng_title(out.buf, title, sizeof(title)))
		mmf_stress_report(c, title, out.buf);
	else if (WEXITSTATUS(st) == 1)
		ret = mmf_sys_fail(EINVAL, "stress-ng %s: usage error (exit status 1)", prof[0]);
	/* Gone, stress-ng leaves no swap on; if it did, off now. */
	if (pid > 0 && swaps_undo(tmp, NULL) >= 0)
		mmf_journal_done(c->t->j, &jk_stressng_swaps, tmp);
	mmf_sb_free(&out);
	free(tmp);
	return ret;
}

const struct mmf_stressor_info mmf_stressor_stressng = {
	.name = "stressng",
	.help = "stress-ng profiles (madvise, mlock, mremap, pageswap, swap, vm, userfaultfd, "
		"fork) with --verify --klog-check; failures become reports",
	.period_ms = 1000,
	.opts = {
		{ "seconds", "length of one stress-ng run", 10, 1, 3600 },
		{ "mb", "memory limit of its cgroup, MiB", 256, 16, 1 << 20 },
		{ "profile", "only this profile (1 madvise, 2 mlock, 3 swap, 4 pageout, 5 KSM,"
		  " 6 userfaultfd); 0: one at random each run", 0, 0, ARRAY_SIZE(profiles) },
	},
	.setup = stressng_setup,
	.step = stressng_step,
	.teardown = stressng_teardown,
};
