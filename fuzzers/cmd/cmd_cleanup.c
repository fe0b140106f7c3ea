// SPDX-License-Identifier: GPL-2.0
/* mmfuzz cleanup: undo what killed runs left (swap, zram, cgroups, knobs). */
#include <stdio.h>

#include "cmd/cmds.h"
#include "sys/journal.h"
#include "sys/sysfs.h"
#include "util/util.h"

static const char epilog[] =
	"Replays the undo journals of runs that are gone (SIGKILL, OOM killer) and\n"
	"leaves those of live runs alone.\n"
	"exit status: 0 nothing failed, 1 an item could not be undone, 2 usage\n";

int cmd_cleanup(int argc, char **argv)
{
	const char *dir = NULL;
	const struct mmf_opt opts[] = {
		MMF_OPT("state-dir", "DIR", MMF_OPT_STR, &dir, "where the journals are",
			.def = "$MMFUZZ_STATE_DIR, else /run/mmfuzz"),
		MMF_OPT_END
	};
	const struct mmf_opt *const tables[] = { opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "cleanup", .synopsis = "[options]", .tables = tables,
		.epilog = epilog, .max_args = 0,
	};
	struct mmf_cleanup_report rep;
	int r;

	mmf_opts_parse(&spec, argc, argv);
	r = mmf_cleanup(dir, stdout, &rep);
	printf("cleanup: %d journal(s), %d replayed, %d of live runs left alone,"
	       " %d item(s) undone, %d failed\n",
	       rep.journals, rep.replayed, rep.live, rep.undone, rep.failed);
	if (r < 0)
		mmf_warnx_("cleanup: %s", mmf_sys_err());
	return r < 0 ? 1 : 0;
}
