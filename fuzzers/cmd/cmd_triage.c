// SPDX-License-Identifier: GPL-2.0
/* mmfuzz triage: kernel reports in console logs, and the crash store. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmds.h"
#include "report/report.h"
#include "store/store.h"
#include "util/util.h"

/* The synopses: each subcommand's --help and triage's list. */
#define PARSE_SYN	"[--json] FILE..."
#define LIST_SYN	"DIR"
#define SHOW_SYN	"DIR TITLE"
#define HTML_SYN	"DIR [--out FILE]"
#define ADD_SYN		"DIR --report FILE [options]"
#define DIR_NOTE	"DIR is a crash store, or a fuzz output directory with one in crashes/.\n"

static const char epilog[] =
	"subcommands ('mmfuzz triage SUBCOMMAND --help' for its options):\n"
	"  parse " PARSE_SYN "\n"
	"      print the title of every report in console logs (FILE - is stdin)\n"
	"  list " LIST_SYN "\n"
	"      one line per bug of a crash store: count, last seen, reproducer, title\n"
	"  show " SHOW_SYN "\n"
	"      a bug's meta, newest report and programs\n"
	"  html " HTML_SYN "\n"
	"      write a static page of the store, one row per bug\n"
	"  add " ADD_SYN "\n"
	"      add one crash\n"
	DIR_NOTE;

/* Append the reports in one log to out; -1 with errno if unreadable. */
static int parse_file(const char *path, bool json, struct strbuf *out)
{
	struct mmf_report *reps;
	size_t len;
	char *log = mmf_read_file(strcmp(path, "-") ? path : "/dev/stdin", &len);
	int n;

	if (!log)
		return -1;
	n = mmf_report_parse(log, len, &reps);
	for (int i = 0; i < n; i++) {
		if (json)
			mmf_report_json(&reps[i], path, out);
		else
			mmf_sb_puts(out, reps[i].title);
		mmf_sb_puts(out, "\n");
	}
	mmf_reports_free(reps, n);
	free(log);
	return 0;
}

static int triage_parse(int argc, char **argv)
{
	bool json = false;
	const struct mmf_opt opts[] = {
		MMF_OPT("json", NULL, MMF_OPT_FLAG, &json,
			"one JSON object per report and line, with all its\n"
			"fields and the file name"),
		MMF_OPT_END
	};
	const struct mmf_opt *const tables[] = { opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "triage parse", .synopsis = PARSE_SYN, .tables = tables,
		.epilog = "Prints the title of every report in console logs (FILE - is stdin).\n",
		.max_args = -1,
	};
	int op = mmf_opts_parse(&spec, argc, argv), status = 0;

	if (op == argc) {
		mmf_warnx_("triage parse: no log file given (see 'mmfuzz triage parse --help')");
		return 2;
	}
	for (int i = op; i < argc; i++) {
		struct strbuf out;

		mmf_sb_init(&out);
		if (parse_file(argv[i], json, &out)) {
			mmf_warnx_("triage parse: %s: %s", argv[i], strerror(errno));
			status = 1;
		} else if (out.len && fwrite(out.buf, 1, out.len, stdout) != out.len) {
			status = 1;
		}
		mmf_sb_free(&out);
	}
	if (fflush(stdout) && !status) {
		mmf_warnx_("triage parse: writing output: %s", strerror(errno));
		status = 1;
	}
	return status;
}

/* DIR itself, or DIR/crashes when DIR is a fuzz run's output directory. */
static char *store_dir(const char *dir)
{
	char *c = mmf_xasprintf("%s/crashes", dir);

	if (mmf_is_dir(c))
		return c;
	free(c);
	return mmf_xstrdup(dir);
}

static int triage_list(int argc, char **argv)
{
	const struct mmf_cmd_spec spec = {
		.name = "triage list", .synopsis = LIST_SYN,
		.epilog = "One line per bug, newest first: count, last seen, reproducer, title.\n"
			  DIR_NOTE,
		.max_args = -1,
	};
	struct mmf_bug *bugs;
	int op = mmf_opts_parse(&spec, argc, argv), n;
	char *dir;

	if (argc - op != 1) {
		mmf_warnx_("triage list: give one crash store directory"
		       " (see 'mmfuzz triage list --help')");
		return 2;
	}
	dir = store_dir(argv[op]);
	n = mmf_store_list(dir, &bugs);
	free(dir);
	if (n < 0) {
		mmf_warnx_("triage list: %s", mmf_store_err());
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
	char *path = mmf_xasprintf("%s/%s", dir, name);
	size_t len;
	char *text = mmf_read_file(path, &len);

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
	char *bdir = mmf_xasprintf("%s/%s", dir, b->name);

	printf("title: %s\n", b->title);
	for (const char *a = b->alt; *a; a += strcspn(a, "\n") + (a[strcspn(a, "\n")] != 0))
		printf("alt: %.*s\n", (int)strcspn(a, "\n"), a);
	printf("directory: %s\ncount: %ld\nfirst_seen: %s\nlast_seen: %s\n"
	       "arch: %s\nkernel: %s\nrepro: %s", bdir, b->count,
	       b->first_seen, b->last_seen, b->arch, b->kernel, b->repro);
	for (int i = 0; i < b->nr_repro; i++)
		printf(" %s", b->repro_files[i]);
	printf("\nkept:");
	for (int i = 0; i < b->nr_occ; i++)
		printf(" %d", b->occ[i].n);
	putchar('\n');
	if (b->nr_occ) {
		const struct mmf_occ *o = &b->occ[b->nr_occ - 1];
		char *name = mmf_xasprintf("report.%d", o->n);

		print_file(bdir, name);
		free(name);
		name = mmf_xasprintf("progs.%d", o->n);
		if (o->files & MMF_OCC_PROGS)
			print_file(bdir, name);
		free(name);
	}
	free(bdir);
}

static int triage_show(int argc, char **argv)
{
	const struct mmf_cmd_spec spec = {
		.name = "triage show", .synopsis = SHOW_SYN,
		.epilog = "Prints a bug's meta, newest report and programs.\n"
			  "TITLE: exact, a unique prefix, or the bug's directory name.\n" DIR_NOTE,
		.max_args = -1,
	};
	int op = mmf_opts_parse(&spec, argc, argv), n, i;
	struct mmf_bug *bugs;
	char *dir;

	if (argc - op != 2) {
		mmf_warnx_("triage show: give a crash store directory and a title"
		       " (see 'mmfuzz triage show --help')");
		return 2;
	}
	dir = store_dir(argv[op]);
	n = mmf_store_list(dir, &bugs);
	if (n < 0) {
		mmf_warnx_("triage show: %s", mmf_store_err());
		free(dir);
		return 1;
	}
	i = mmf_store_find(bugs, n, argv[op + 1]);
	if (i == -ENOTUNIQ)
		mmf_warnx_("triage show: '%s' is the start of several titles in %s: give more of it",
		       argv[op + 1], dir);
	else if (i < 0)
		mmf_warnx_("triage show: no bug titled '%s' in %s", argv[op + 1], dir);
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
	const char *out = NULL;
	const struct mmf_opt opts[] = {
		MMF_OPT("out", "FILE", MMF_OPT_STR, &out, "the page", .def = "DIR/index.html"),
		MMF_OPT_END
	};
	const struct mmf_opt *const tables[] = { opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "triage html", .synopsis = HTML_SYN, .tables = tables,
		.epilog = "Writes a static page of the store, one row per bug, with relative\n"
			  "links to every file.\n" DIR_NOTE,
		.max_args = -1,
	};
	int op = mmf_opts_parse(&spec, argc, argv), n, ret;
	char *dir, *path;

	if (argc - op != 1) {
		mmf_warnx_("triage html: give one crash store directory"
		       " (see 'mmfuzz triage html --help')");
		return 2;
	}
	dir = store_dir(argv[op]);
	path = out ? mmf_xstrdup(out) : mmf_xasprintf("%s/index.html", dir);
	ret = mmf_store_html_file(dir, path, &n);
	if (ret)
		mmf_warnx_("triage html: %s", mmf_store_err());
	else
		printf("wrote %s: %d bug%s\n", path, n, n == 1 ? "" : "s");
	free(dir);
	free(path);
	return ret ? 1 : 0;
}

/* --report, --log, --progs, --sym: the files of one crash, in this order. */
enum { F_REPORT, F_LOG, F_PROGS, F_SYM, NR_FILES };

static int add_crash(const char *dir, struct mmf_crash *c, const char *const *files, int keep)
{
	char *text[NR_FILES] = { NULL };
	struct mmf_report *reps = NULL;
	struct mmf_store_added res;
	size_t len = 0;
	int ret = 1, nr = 0;

	for (int i = 0; i < NR_FILES; i++) {
		if (!files[i])
			continue;
		text[i] = mmf_read_file(files[i], i == F_REPORT ? &len : NULL);
		if (!text[i]) {
			mmf_warnx_("triage add: %s: %s", files[i], strerror(errno));
			goto out;
		}
	}
	/* The first report's titles, and whether it is whole. */
	if (!c->title)
		nr = mmf_report_parse(text[F_REPORT], len, &reps);
	if (!c->title && nr > 0) {
		c->title = reps[0].title;
		c->alt_titles = (const char *const *)reps[0].alt_titles;
		c->nr_alt = reps[0].nr_alt;
		c->corrupted = reps[0].corrupted;
	}
	if (!c->title) {
		mmf_warnx_("triage add: no kernel report in %s: give its --title", files[F_REPORT]);
		goto out;
	}
	c->report = text[F_REPORT];
	c->log = text[F_LOG];
	c->progs = text[F_PROGS];
	c->report_sym = text[F_SYM];
	if (mmf_store_add_keep(dir, c, keep, &res)) {
		mmf_warnx_("triage add: %s", mmf_store_err());
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
	if (nr > 0)
		mmf_reports_free(reps, nr);
	return ret;
}

static int triage_add(int argc, char **argv)
{
	struct mmf_crash crash = { 0 };
	const char *files[NR_FILES] = { NULL };
	int keep = MMF_STORE_KEEP;
	uint64_t when = 0;
	const struct mmf_opt opts[] = {
		MMF_OPT("report", "FILE", MMF_OPT_STR, &files[F_REPORT],
			"the kernel report (required)"),
		MMF_OPT("title", "T", MMF_OPT_STR, &crash.title, "the bug's title",
			.def = "that of the first report in the --report file"),
		MMF_OPT("log", "F", MMF_OPT_STR, &files[F_LOG], "console log around it"),
		MMF_OPT("progs", "F", MMF_OPT_STR, &files[F_PROGS],
			"the programs executed around it"),
		MMF_OPT("sym", "F", MMF_OPT_STR, &files[F_SYM], "the symbolized report"),
		MMF_OPT("kernel", "K", MMF_OPT_STR, &crash.kernel,
			"kernel build, e.g. uname -r and -v"),
		MMF_OPT("arch", "A", MMF_OPT_STR, &crash.arch, "architecture: x86_64, arm64"),
		MMF_OPT("time", "EPOCH", MMF_OPT_U64, &when, "when it happened, seconds since 1970",
			.lo = 1, .hi = INT64_MAX, .def = "now"),
		/* The store allocates keep + 1 slots. */
		MMF_OPT("keep", "N", MMF_OPT_INT, &keep,
			"occurrences kept with their files; the others are counted",
			.hi = INT_MAX - 1),
		MMF_OPT_END
	};
	const struct mmf_opt *const tables[] = { opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "triage add", .synopsis = ADD_SYN, .tables = tables,
		.epilog = "Adds one crash to the store DIR, creating it as needed.\n" DIR_NOTE,
		.max_args = -1,
	};
	int op = mmf_opts_parse(&spec, argc, argv);

	if (argc - op != 1 || !files[F_REPORT]) {
		mmf_warnx_("triage add: give a crash store directory and --report FILE"
		       " (see 'mmfuzz triage add --help')");
		return 2;
	}
	crash.time = when;
	return add_crash(argv[op], &crash, files, keep);
}

int cmd_triage(int argc, char **argv)
{
	static const struct mmf_subcmd cmds[] = {
		{ "parse", triage_parse },
		{ "list", triage_list },
		{ "show", triage_show },
		{ "html", triage_html },
		{ "add", triage_add },
	};
	const struct mmf_cmd_spec spec = {
		.name = "triage", .synopsis = "SUBCOMMAND [options]", .epilog = epilog,
		.max_args = 0,
	};

	return mmf_subcmd_run(&spec, cmds, ARRAY_SIZE(cmds), argc, argv);
}
