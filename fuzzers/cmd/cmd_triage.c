// SPDX-License-Identifier: GPL-2.0
/* mmfuzz triage: look at the kernel reports in console logs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmds.h"
#include "report/report.h"
#include "util/util.h"

static int triage_parse(int argc, char **argv);

static const struct triage_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *args, *help;
} triage_cmds[] = {
	{ "parse", triage_parse, "[--json] FILE...",
	  "print the title of every report in console logs (FILE - is stdin)" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: mmfuzz triage <subcommand> [options]\n\nsubcommands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(triage_cmds); i++)
		fprintf(f, "  %s %s\n      %s\n", triage_cmds[i].name, triage_cmds[i].args,
			triage_cmds[i].help);
	fprintf(f, "\n--json prints one JSON object per report and line, with all its\n"
		"fields and the file name.\n");
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
