// SPDX-License-Identifier: GPL-2.0
/* mmfuzz triage: kernel reports in console logs, and the crash store. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmds.h"
#include "report/report.h"
#include "store/store.h"
#include "util/util.h"

static int triage_parse(int argc, char **argv);
static int triage_list(int argc, char **argv);
static int triage_show(int argc, char **argv);
static int triage_html(int argc, char **argv);
static int triage_add(int argc, char **argv);

static const struct triage_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *args, *help;
} triage_cmds[] = {
	{ "parse", triage_parse, "[--json] FILE...",
	  "print the title of every report in console logs (FILE - is stdin)" },
	{ "list", triage_list, "DIR",
	  "one line per bug of a crash store: count, last seen, reproducer, title" },
	{ "show", triage_show, "DIR TITLE",
	  "a bug's meta, newest report and programs (TITLE: exact, a unique\n"
	  "      prefix, or the bug's directory name)" },
	{ "html", triage_html, "DIR [--out FILE]",
	  "write a static page of the store, one row per bug (default DIR/index.html)" },
	{ "add", triage_add,
	  "DIR --report FILE [--title T] [--log F] [--progs F] [--sym F] [--kernel K]\n"
	  "      [--arch A] [--time EPOCH] [--keep N]",
	  "add one crash (without --title, the first report found in the report\n"
	  "      file names it)" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: mmfuzz triage <subcommand> [options]\n\nsubcommands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(triage_cmds); i++)
		fprintf(f, "  %s %s\n      %s\n", triage_cmds[i].name, triage_cmds[i].args,
			triage_cmds[i].help);
	fprintf(f, "\n--json prints one JSON object per report and line, with all its\n"
		"fields and the file name.\n"
		"DIR is a crash store, or a fuzz output directory with one in crashes/.\n");
}

/* Append the reports in one log to out; -1 with errno if unreadable. */
static int parse_file(const char *path, bool json, struct strbuf *out)
{
	struct mmf_report *reps;
	size_t len;
	char *log = read_file(strcmp(path, "-") ? path : "/dev/stdin", &len);
	int n;

	if (!log)
		return -1;
	n = mmf_report_parse(log, len, &reps);
	for (int i = 0; i < n; i++) {
		if (json)
			mmf_report_json(&reps[i], path, out);
		else
			sb_puts(out, reps[i].title);
		sb_puts(out, "\n");
	}
	mmf_reports_free(reps, n);
	free(log);
	return 0;
}

static int triage_parse(int argc, char **argv)
{
	bool json = false, opts = true;
	int nfiles = 0, status = 0;
	char **files = xcalloc(argc, sizeof(*files));

	for (int i = 1; i < argc; i++) {
		if (opts && !strcmp(argv[i], "--")) {
			opts = false;
		} else if (opts && !strcmp(argv[i], "--json")) {
			json = true;
		} else if (opts && (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))) {
			usage(stdout);
			free(files);
			return 0;
		} else if (opts && argv[i][0] == '-' && argv[i][1]) {
			warnx_("triage parse: unknown option '%s' (see 'mmfuzz triage --help')",
			       argv[i]);
			free(files);
			return 2;
		} else {
			files[nfiles++] = argv[i];
		}
	}
	if (!nfiles) {
		warnx_("triage parse: no log file given (see 'mmfuzz triage --help')");
		free(files);
		return 2;
	}
	for (int i = 0; i < nfiles; i++) {
		struct strbuf out;

		sb_init(&out);
		if (parse_file(files[i], json, &out)) {
			warnx_("triage parse: %s: %s", files[i], strerror(errno));
			status = 1;
		} else if (out.len && fwrite(out.buf, 1, out.len, stdout) != out.len) {
			status = 1;
		}
		sb_free(&out);
	}
	free(files);
	if (fflush(stdout) && !status) {
		warnx_("triage parse: writing output: %s", strerror(errno));
		status = 1;
	}
	return status;
}

static bool wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

/* DIR itself, or DIR/crashes when DIR is a fuzz run's output directory. */
static char *store_dir(const char *dir)
{
	char *c = xasprintf("%s/crashes", dir);
	struct stat st;

	if (!stat(c, &st) && S_ISDIR(st.st_mode))
		return c;
	free(c);
	return xstrdup(dir);
}

static int triage_list(int argc, char **argv)
{
	struct mmf_bug *bugs;
	char *dir;
	int n;

	if (wants_help(argc, argv)) {
		usage(stdout);
		return 0;
	}
	if (argc != 2) {
		warnx_("triage list: give one crash store directory (see 'mmfuzz triage --help')");
		return 2;
	}
	dir = store_dir(argv[1]);
	n = mmf_store_list(dir, &bugs);
	free(dir);
	if (n < 0) {
		warnx_("triage list: %s", mmf_store_err());
		return 1;
	}
	for (int i = 0; i < n; i++)
		printf("%6ld  %-20s  %-6s  %s\n", bugs[i].count,
		       bugs[i].last_seen[0] ? bugs[i].last_seen : "-", bugs[i].repro,
		       bugs[i].title);
	mmf_bugs_free(bugs, n);
	return fflush(stdout) ? 1 : 0;
}

/* Print "--- path ---" and the file; 0, or -1 if it cannot be read. */
static int print_file(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	size_t len;
	char *text = read_file(path, &len);

	if (text) {
		printf("--- %s ---\n", path);
		fwrite(text, 1, len, stdout);
		if (len && text[len - 1] != '\n')
			putchar('\n');
	}
	free(text);
	free(path);
	return text ? 0 : -1;
}

static void show_bug(const char *dir, const struct mmf_bug *b)
{
	char *bdir = xasprintf("%s/%s", dir, b->name);

	printf("title: %s\ndirectory: %s\ncount: %ld\nfirst_seen: %s\nlast_seen: %s\n"
	       "arch: %s\nkernel: %s\nrepro: %s", b->title, bdir, b->count,
	       b->first_seen, b->last_seen, b->arch, b->kernel, b->repro);
	for (int i = 0; i < b->nr_repro; i++)
		printf(" %s", b->repro_files[i]);
	printf("\nkept:");
	for (int i = 0; i < b->nr_occ; i++)
		printf(" %d", b->occ[i].n);
	putchar('\n');
	if (b->nr_occ) {
		const struct mmf_occ *o = &b->occ[b->nr_occ - 1];
		char *name = xasprintf("report.%d", o->n);

		print_file(bdir, name);
		free(name);
		name = xasprintf("progs.%d", o->n);
		if (o->files & MMF_OCC_PROGS)
			print_file(bdir, name);
		free(name);
	}
	free(bdir);
}

static int triage_show(int argc, char **argv)
{
	struct mmf_bug *bugs;
	char *dir;
	int n, i;

	if (wants_help(argc, argv)) {
		usage(stdout);
		return 0;
	}
	if (argc != 3) {
		warnx_("triage show: give a crash store directory and a title (see 'mmfuzz triage --help')");
		return 2;
	}
	dir = store_dir(argv[1]);
	n = mmf_store_list(dir, &bugs);
	if (n < 0) {
		warnx_("triage show: %s", mmf_store_err());
		free(dir);
		return 1;
	}
	i = mmf_store_find(bugs, n, argv[2]);
	if (i == -ENOTUNIQ)
		warnx_("triage show: '%s' is the start of several titles in %s: give more of it",
		       argv[2], dir);
	else if (i < 0)
		warnx_("triage show: no bug titled '%s' in %s", argv[2], dir);
	else
		show_bug(dir, &bugs[i]);
	mmf_bugs_free(bugs, n);
	free(dir);
	if (i < 0)
		return 1;
	return fflush(stdout) ? 1 : 0;
}

static int triage_html(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *out = NULL;
	char *dir, *path;
	int c, n, ret;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		if (c == 'o') {
			out = optarg;
		} else if (c == 'h') {
			usage(stdout);
			return 0;
		} else {
			warnx_("triage html: bad option '%s' (see 'mmfuzz triage --help')",
			       argv[optind - 1]);
			return 2;
		}
	}
	if (argc - optind != 1) {
		warnx_("triage html: give one crash store directory (see 'mmfuzz triage --help')");
		return 2;
	}
	dir = store_dir(argv[optind]);
	path = out ? xstrdup(out) : xasprintf("%s/index.html", dir);
	ret = mmf_store_html_file(dir, path, &n);
	if (ret)
		warnx_("triage html: %s", mmf_store_err());
	else
		printf("wrote %s: %d bug%s\n", path, n, n == 1 ? "" : "s");
	free(dir);
	free(path);
	return ret ? 1 : 0;
}

/* The title of the first report in a console log, NULL if none. */
static char *first_title(const char *text, size_t len)
{
	struct mmf_report *reps;
	int n = mmf_report_parse(text, len, &reps);
	char *t = n > 0 ? xstrdup(reps[0].title) : NULL;

	mmf_reports_free(reps, n);
	return t;
}

/* --report, --log, --progs, --sym: the files of one crash, in this order. */
enum { F_REPORT, F_LOG, F_PROGS, F_SYM, NR_FILES };

static int add_crash(const char *dir, struct mmf_crash *c, char *const *files, int keep)
{
	char *text[NR_FILES] = { NULL }, *title = NULL;
	struct mmf_store_added res;
	size_t len = 0;
	int ret = 1;

	for (int i = 0; i < NR_FILES; i++) {
		if (!files[i])
			continue;
		text[i] = read_file(files[i], i == F_REPORT ? &len : NULL);
		if (!text[i]) {
			warnx_("triage add: %s: %s", files[i], strerror(errno));
			goto out;
		}
	}
	if (!c->title)
		c->title = title = first_title(text[F_REPORT], len);
	if (!c->title) {
		warnx_("triage add: no kernel report in %s: give its --title", files[F_REPORT]);
		goto out;
	}
	c->report = text[F_REPORT];
	c->log = text[F_LOG];
	c->progs = text[F_PROGS];
	c->report_sym = text[F_SYM];
	if (mmf_store_add_keep(dir, c, keep, &res)) {
		warnx_("triage add: %s", mmf_store_err());
		goto out;
	}
	if (res.index >= 0)
		printf("%s/%s/report.%d: %s (count %ld)\n", dir, res.name, res.index, c->title,
		       res.count);
	else
		printf("%s/%s: %s (count %ld, not kept)\n", dir, res.name, c->title, res.count);
	ret = 0;
out:
	for (int i = 0; i < NR_FILES; i++)
		free(text[i]);
	free(title);
	return ret;
}

static int triage_add(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "report", required_argument, NULL, 'r' },
		{ "log", required_argument, NULL, 'l' },
		{ "progs", required_argument, NULL, 'p' },
		{ "sym", required_argument, NULL, 's' },
		{ "title", required_argument, NULL, 't' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "arch", required_argument, NULL, 'a' },
		{ "time", required_argument, NULL, 'T' },
		{ "keep", required_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static const char file_opts[NR_FILES] = { 'r', 'l', 'p', 's' };
	struct mmf_crash crash = { 0 };
	char *files[NR_FILES] = { NULL }, *end;
	int c, keep = MMF_STORE_KEEP;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		const char *f = c ? memchr(file_opts, c, NR_FILES) : NULL;

		if (f) {
			files[f - file_opts] = optarg;
		} else if (c == 't') {
			crash.title = optarg;
		} else if (c == 'k') {
			crash.kernel = optarg;
		} else if (c == 'a') {
			crash.arch = optarg;
		} else if (c == 'T') {
			crash.time = strtoll(optarg, &end, 10);
			if (*end || end == optarg || crash.time <= 0) {
				warnx_("triage add: bad --time '%s' (seconds since 1970)", optarg);
				return 2;
			}
		} else if (c == 'K') {
			keep = strtol(optarg, &end, 10);
			if (*end || end == optarg || keep < 0) {
				warnx_("triage add: bad --keep '%s'", optarg);
				return 2;
			}
		} else if (c == 'h') {
			usage(stdout);
			return 0;
		} else {
			warnx_("triage add: bad option '%s' (see 'mmfuzz triage --help')",
			       argv[optind - 1]);
			return 2;
		}
	}
	if (argc - optind != 1 || !files[F_REPORT]) {
		warnx_("triage add: give a crash store directory and --report FILE (see 'mmfuzz triage --help')");
		return 2;
	}
	return add_crash(argv[optind], &crash, files, keep);
}

int cmd_triage(int argc, char **argv)
{
	if (argc < 2) {
		warnx_("triage: missing subcommand (see 'mmfuzz triage --help')");
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(triage_cmds); i++)
		if (!strcmp(argv[1], triage_cmds[i].name))
			return triage_cmds[i].fn(argc - 1, argv + 1);
	warnx_("triage: unknown subcommand '%s' (see 'mmfuzz triage --help')", argv[1]);
	return 2;
}
