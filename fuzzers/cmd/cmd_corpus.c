// SPDX-License-Identifier: GPL-2.0
/* mmfuzz corpus minimize: an AFL++ engine's queues, one input per edge. */
#include <stdio.h>
#include <string.h>

#include "campaign/corpus.h"
#include "cmd/cmds.h"
#include "store/tally.h"
#include "util/util.h"

static const char epilog[] =
	"OUT...: outputs of 'mmfuzz campaign --engine afl'. For each edge their\n"
	"programs reached, the smallest program that reached it is written to\n"
	"--out (new or empty), in the byte form: 'campaign --corpus DIR' takes it.\n";

int cmd_corpus(int argc, char **argv)
{
	const char *to = NULL;
	const struct mmf_opt opts[] = {
		CMD_OPT_OUT(&to, "the minimized corpus (a new or empty directory)"),
		MMF_OPT_END
	};
	const struct mmf_opt *const tables[] = { opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "corpus", .synopsis = "minimize --out DIR OUT...", .tables = tables,
		.epilog = epilog, .min_args = 2, .max_args = -1,
	};
	struct mmf_corpus_stats st;
	char err[512];
	int i = mmf_opts_parse(&spec, argc, argv);

	if (strcmp(argv[i], "minimize")) {
		mmf_warnx_("corpus: unknown subcommand '%s' (minimize)", argv[i]);
		return MMF_EXIT_USAGE;
	}
	if (!to) {
		mmf_warnx_("corpus: give --out DIR");
		return MMF_EXIT_USAGE;
	}
	if (mmf_corpus_minimize((const char *const *)argv + i + 1, to, &st, err, sizeof(err)))
		mmf_die("corpus: %s", err);
	printf("corpus: %d program(s), %d edge(s): kept %d in %s (%d without edges on record)\n",
	       st.inputs, st.edges, st.kept, to, st.unknown);
	return 0;
}
