// SPDX-License-Identifier: GPL-2.0
/* mmfuzz symbolize: source lines for the frames of a kernel report. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmds.h"
#include "symbolize/symbolize.h"
#include "util/util.h"

static const char usage[] =
	"usage: mmfuzz symbolize --vmlinux FILE [options] [REPORT_FILE|-]\n"
	"  --vmlinux FILE   the kernel's ELF image, with debug info\n"
	"  --modules DIR    where NAME.ko of [NAME] frames is (recursively);\n"
	"                   default: the vmlinux's directory\n"
	"  --basepath DIR   source tree prefix to strip from paths (default: guessed)\n"
	"  --cross PREFIX   binutils prefix, e.g. aarch64-linux-gnu- or llvm-\n"
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
		warnx_("symbolize: %s", line);
	}
	free(notes);
}

int cmd_symbolize(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "vmlinux", required_argument, NULL, 'v' },
		{ "modules", required_argument, NULL, 'm' },
		{ "basepath", required_argument, NULL, 'b' },
		{ "cross", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct mmf_sym_opts o = { 0 };
	struct mmf_symbolizer *s;
	const char *path = "-";
	char *text, *out, *err;
	size_t len, out_len;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'v':
			o.vmlinux = optarg;
			break;
		case 'm':
			o.modules = optarg;
			break;
		case 'b':
			o.basepath = optarg;
			break;
		case 'c':
			o.cross = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (!o.vmlinux || argc - optind > 1) {
		warnx_(!o.vmlinux ? "symbolize: --vmlinux FILE is required" :
		       "symbolize: one report at a time (see 'mmfuzz symbolize --help')");
		return 2;
	}
	if (optind < argc)
		path = argv[optind];
	s = mmf_symbolizer_new(&o, &err);
	if (!s) {
		warnx_("symbolize: %s", err);
		free(err);
		return 1;
	}
	text = read_file(strcmp(path, "-") ? path : "/dev/stdin", &len);
	if (!text) {
		warnx_("symbolize: %s: %s", path, strerror(errno));
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
		warnx_("symbolize: writing output: %s", strerror(errno));
		return 1;
	}
	return 0;
}
