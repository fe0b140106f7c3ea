// SPDX-License-Identifier: GPL-2.0
/* A campaign's engine and seeds, shared by campaign and vm. */
#include <stdio.h>
#include <string.h>

#include "campaign/campaign.h"
#include "cmd/cmds.h"

int cmd_parse_engine(const char *arg, void *dst, char *err, size_t n)
{
	if (strcmp(arg, "afl") && strcmp(arg, "mmfuzz")) {
		snprintf(err, n, "is neither afl nor mmfuzz");
		return -1;
	}
	*(const char **)dst = arg;
	return 0;
}

const struct mmf_opt *cmd_engine_opts(const char **engine, const char **corpus,
				      struct mmf_campaign_opts *o)
{
	static struct mmf_opt t[] = {
		MMF_OPT("engine", "E", MMF_OPT_FN, NULL,
			"afl: AFL++ over KCOV, its queue on the host; mmfuzz: the\n"
			"guests' own loop", .fn = cmd_parse_engine, .def = "mmfuzz"),
		MMF_OPT("corpus", "DIR", MMF_OPT_STRS, NULL,
			"seeds: programs (*.mmf, byte form), AFL++ queues, an earlier\n"
			"campaign's OUT (repeatable); none: generation alone",
			.hi = CMD_CORPUS_SLOTS, .def = "the project's corpus/"),
		MMF_OPT("focus", "SPEC", MMF_OPT_STR, NULL,
			"afl: the coverage that counts: 'all', 'mm' (the functions of\n"
			"mm/) or source files and directories, FILE[,FILE...]", .def = "mm"),
		MMF_OPT("quiet", NULL, MMF_OPT_FLAG, NULL,
			"no progress line every 10 s (the summary stays)"),
		MMF_OPT_END
	};

	t[0].dst = engine;
	t[1].dst = corpus;
	t[2].dst = &o->focus;
	t[3].dst = &o->quiet;
	return t;
}
