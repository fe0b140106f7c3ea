// SPDX-License-Identifier: GPL-2.0
/* mmfuzz symbolize: source lines for the frames of a kernel report. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmds.h"
#include "symbolize/symbolize.h"
#include "util/util.h"

static const char epilog[] =
	"--vmlinux is required: the kernel's ELF image, with debug info.\n"
	"Prints the report (default: stdin) with a source line on every frame and\n"
	"the functions inlined there; why a frame stays as it was goes to stderr.\n"
	"exit status: 0 printed, 1 error, 2 usage\n";

static void print_notes(char *notes)
{
	for (char *line = notes, *nl; line && *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		else
			nl = line + strlen(line);
		mmf_warnx_("symbolize: %s", line);
	}
	free(notes);
}

int cmd_symbolize(int argc, char **argv)
{
	struct mmf_sym_opts o = { 0 };
	const struct mmf_opt opts[] = {
		CMD_OPT_VMLINUX(&o.vmlinux),
		MMF_OPT("modules", "DIR", MMF_OPT_STR, &o.modules,
			"where NAME.ko of [NAME] frames is (recursively)",
			.def = "the vmlinux's directory"),
		MMF_OPT("basepath", "DIR", MMF_OPT_STR, &o.basepath,
			"source tree prefix to strip from paths", .def = "guessed"),
		MMF_OPT("cross", "PREFIX", MMF_OPT_STR, &o.cross,
			"binutils prefix, e.g. aarch64-linux-gnu- or llvm-"),
		MMF_OPT_END
	};
	const struct mmf_opt *const tables[] = { opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "symbolize", .synopsis = "--vmlinux FILE [options] [REPORT_FILE|-]",
		.tables = tables, .epilog = epilog, .max_args = 1,
	};
	int i = mmf_opts_parse(&spec, argc, argv), c;
	const char *path = i < argc ? argv[i] : "-";
	struct mmf_symbolizer *s;
	char *text, *out, *err;
	size_t len, out_len;

	if (!o.vmlinux) {
		mmf_warnx_("symbolize: --vmlinux FILE is required (see 'mmfuzz symbolize --help')");
		return 2;
	}
	s = mmf_symbolizer_new(&o, &err);
	if (!s) {
		mmf_warnx_("symbolize: %s", err);
		free(err);
		return 1;
	}
	text = mmf_read_file(strcmp(path, "-") ? path : "/dev/stdin", &len);
	if (!text) {
		mmf_warnx_("symbolize: %s: %s", path, strerror(errno));
		mmf_symbolizer_free(s);
		return 1;
	}
	mmf_symbolizer_run(s, text, len, &out, &out_len);
	print_notes(mmf_symbolizer_notes(s));
	mmf_symbolizer_free(s);
	free(text);
	c = fwrite(out, 1, out_len, stdout) != out_len || fflush(stdout);
	free(out);
	if (c) {
		mmf_warnx_("symbolize: writing output: %s", strerror(errno));
		return 1;
	}
	return 0;
}
