// SPDX-License-Identifier: GPL-2.0
/* mmfuzz cover: which instrumented PCs of the focus guests covered. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmds.h"
#include "cover/cover.h"
#include "util/util.h"

static const char epilog[] =
	"--vmlinux is required: the guests' kernel, built with KCOV and debug info.\n"
	"A PCFILE holds kernel PCs as KCOV_TRACE_PC records them, one hex address a\n"
	"line (0x optional; duplicates are fine, '#' lines are skipped; - is stdin).\n"
	"Prints covered/instrumented PCs per file and function of the focus: 'all'\n"
	"(the kernel text), 'mm' (the functions of mm/) or source files and\n"
	"directories, comma-separated (mm/madvise.c,mm/swapfile.c). What the binutils\n"
	"say about a vmlinux is cached beside it, else in $XDG_CACHE_HOME/mmfuzz or\n"
	"/var/tmp/mmfuzz-cache.UID.\n"
	"exit status: 0 printed, 1 error, 2 usage\n";

int cmd_cover(int argc, char **argv)
{
	struct mmf_cover_opts o = { .focus = "mm" };
	const struct mmf_opt opts[] = {
		MMF_OPT("vmlinux", "FILE", MMF_OPT_STR, &o.vmlinux,
			"the kernel's ELF image, with debug info"),
		MMF_OPT("focus", "SPEC", MMF_OPT_STR, &o.focus,
			"all, mm, or files and directories: mm/madvise.c,mm/swapfile.c"),
		MMF_OPT("html", "FILE", MMF_OPT_STR, &o.html,
			"also write a page of the source lines, marked covered or not"),
		MMF_OPT("source", "DIR", MMF_OPT_STR, &o.source, "the kernel source tree",
			.def = "the tree the vmlinux was built from"),
		MMF_OPT("cross", "PREFIX", MMF_OPT_STR, &o.cross,
			"binutils prefix, e.g. aarch64-linux-gnu-",
			.def = "what the vmlinux's machine needs"),
		MMF_OPT_END
	};
	const struct mmf_opt *const tables[] = { opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "cover", .synopsis = "--vmlinux FILE [options] PCFILE...",
		.tables = tables, .epilog = epilog, .min_args = 1, .max_args = -1,
	};
	int i = mmf_opts_parse(&spec, argc, argv), ret;
	struct mmf_cover_pcs pcs = { 0 };
	char err[512];

	if (!o.vmlinux) {
		mmf_warnx_("cover: --vmlinux FILE is required (see 'mmfuzz cover --help')");
		return 2;
	}
	if (mmf_cover_check(&o, err, sizeof(err))) {
		mmf_warnx_("cover: %s", err);
		return 1;
	}
	for (; i < argc; i++) {
		if (mmf_cover_pcs_read(argv[i], &pcs, err, sizeof(err))) {
			mmf_warnx_("cover: %s", err);
			mmf_cover_pcs_free(&pcs);
			return 1;
		}
	}
	mmf_cover_pcs_sort(&pcs);
	ret = mmf_cover_report(&o, &pcs, stdout, err, sizeof(err));
	mmf_cover_pcs_free(&pcs);
	if (ret) {
		mmf_warnx_("cover: %s", err);
		return 1;
	}
	if (o.html)
		fprintf(stdout, "wrote %s\n", o.html);
	if (fflush(stdout)) {
		mmf_warnx_("cover: writing output: %s", strerror(errno));
		return 1;
	}
	return 0;
}
