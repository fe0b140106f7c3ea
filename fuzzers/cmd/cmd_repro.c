// SPDX-License-Identifier: GPL-2.0
/* mmfuzz repro: find and minimize the reproducer of a saved crash. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmds.h"
#include "fuzz/env.h"
#include "fuzz/native.h"
#include "oracle/csource.h"
#include "oracle/kmsg.h"
#include "repro/repro.h"
#include "store/store.h"
#include "util/util.h"

static const char usage[] =
	"usage: mmfuzz repro --native [options] CRASHDIR\n"
	"  --native          reproduce on the running kernel\n"
	"  --attempts N      runs per candidate (default 5)\n"
	"  --max-steps N     minimization steps at most (default 300)\n"
	"  --timeout T       per-program timeout (default 30s)\n"
	"  --corrupt-tag T   test hook: corrupt a page after each write of tag T\n"
	"CRASHDIR holds 'title' and the programs that ran around the crash\n"
	"(progs.N, several programs separated by '# mmfuzz: executing program').\n";

#define EXEC_MARK "# mmfuzz: executing program"

/* The newest progs.N (or prog.N) of the crash directory. */
static char *newest_progs(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *best = NULL;
	int best_n = -1;

	if (!d)
		die("repro: %s: %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		int n;
		char c;

		if ((sscanf(e->d_name, "progs.%d%c", &n, &c) == 1 ||
		     sscanf(e->d_name, "prog.%d%c", &n, &c) == 1) && n > best_n) {
			free(best);
			best = xasprintf("%s/%s", dir, e->d_name);
			best_n = n;
		}
	}
	closedir(d);
	if (!best)
		die("repro: %s: no programs (progs.N) saved with this crash", dir);
	return best;
}

/* Split an execution log into programs; returns how many. */
static int parse_progs(const char *path, struct mmf_prog *progs, int max)
{
	char *text = read_file(path, NULL), *p, err[256];
	int n = 0;

	if (!text)
		die("repro: %s: %s", path, strerror(errno));
	for (p = text; p && *p && n < max; ) {
		char *next = strstr(p + 1, "\n" EXEC_MARK);

		if (next)
			*next++ = '\0';
		if (mmf_prog_parse(p, &progs[n], err, sizeof(err)))
			die("repro: %s: program %d: %s", path, n, err);
		if (mmf_prog_nr_calls(&progs[n]))
			n++;
		p = next;
	}
	free(text);
	return n;
}

static void log_line(void *ctx, const char *fmt, ...)
{
	va_list ap;

	printf("repro: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

int cmd_repro(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "native", no_argument, NULL, 'n' },
		{ "attempts", required_argument, NULL, 'a' },
		{ "max-steps", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ "corrupt-tag", required_argument, NULL, 'C' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "arch", required_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct mmf_exec_opts eo = { .timeout_ms = 30000, .exec_log_fd = -1,
				    .corrupt_after = -1, .hang_after = -1 };
	struct mmf_repro_ops ops = { .run = mmf_native_run, .ctx = &eo, .attempts = 5,
				     .min_attempts = 2, .max_steps = 300, .log = log_line };
	static struct mmf_prog progs[64];
	struct mmf_repro_result res;
	bool native = false, guest = false;
	char *title, *path, err[256];
	struct mmf_env env;
	const char *dir;
	int c, n, rc;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			native = true;
			break;
		case 'a':
			ops.attempts = MAX(1, atoi(optarg));
			break;
		case 's':
			ops.max_steps = MAX(0, atoi(optarg));
			break;
		case 't':
			eo.timeout_ms = parse_duration_ms(optarg);
			if (eo.timeout_ms <= 0)
				die("repro: bad timeout '%s'", optarg);
			break;
		case 'C':
			eo.corrupt_tag = strtol(optarg, NULL, 0);
			break;
		case 'k':
		case 'A':
			guest = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		warnx_("repro: give one crash directory (see --help)");
		return 2;
	}
	if (guest)
		die("repro: reproducing in a guest needs the kvm runner, not built yet: use --native");
	if (!native)
		die("repro: refusing to run programs on the running kernel without --native");
	if (geteuid())
		die("repro: running programs natively needs root");
	dir = argv[optind];
	path = xasprintf("%s/title", dir);
	title = read_file(path, NULL);
	if (!title || !*title)
		die("repro: %s: %s", path, title ? "empty" : strerror(errno));
	title[strcspn(title, "\n")] = '\0';
	free(path);
	path = newest_progs(dir);
	n = parse_progs(path, progs, ARRAY_SIZE(progs));
	printf("repro: '%s': %d program(s) from %s\n", title, n, path);
	free(path);
	if (mmf_env_setup(&mmf_env_defaults, &env, err, sizeof(err)))
		die("repro: %s", err);
	for (int i = 0; i < env.nr_swaps; i++)
		eo.swaps[i] = env.swaps[i];
	eo.cgroup_procs = env.procs[0] ? env.procs : NULL;
	eo.kmsg = mmf_kmsg_open();
	rc = mmf_repro(&ops, progs, n, title, &res);
	mmf_kmsg_close(eo.kmsg);
	if (mmf_env_teardown(&env))
		rc = -1;
	if (rc < 0)
		die("repro: the programs could not be run");
	if (!res.found) {
		printf("repro: not reproduced in %d attempt(s) per candidate\n", ops.attempts);
		free(title);
		return 1;
	}
	{
		struct strbuf sb, csrc;
		char *store = xstrdup(dir), *slash;

		sb_init(&sb);
		sb_init(&csrc);
		for (int i = 0; i < res.nr_progs; i++) {
			if (res.nr_progs > 1)
				sb_printf(&sb, "%s %d of %d, run concurrently\n", EXEC_MARK, i + 1,
					  res.nr_progs);
			mmf_prog_print(&res.progs[i], &sb);
		}
		/* The bug directory's store is its parent. */
		while ((slash = strrchr(store, '/')) && !slash[1])
			*slash = '\0';
		slash = strrchr(store, '/');
		if (slash)
			*slash = '\0';
		/* A C reproducer only of a single program: the sets run as text. */
		if (res.nr_progs == 1)
			mmf_prog_csource(&res.progs[0], &csrc);
		if (mmf_store_set_repro(slash ? store : ".", title, csrc.len ? "c" : "prog", sb.buf,
					csrc.len ? csrc.buf : NULL) < 0)
			die("repro: cannot save the reproducer: %s", mmf_store_err());
		sb_free(&sb);
		sb_free(&csrc);
		free(store);
	}
	printf("repro: reproduced '%s': %d program(s), %d -> %d calls in %d steps,"
	       " hit rate %d/%d; saved in %s\n", title, res.nr_progs, res.calls_before,
	       res.calls_after, res.steps, res.hits, res.runs, dir);
	free(title);
	return 0;
}
