// SPDX-License-Identifier: GPL-2.0
/* mmfuzz cleanup: undo what killed runs left (swap, zram, cgroups, knobs). */
#include <stdio.h>
#include <string.h>

#include "cmd/cmds.h"
#include "sys/journal.h"
#include "sys/sysfs.h"
#include "util/util.h"

int cmd_cleanup(int argc, char **argv)
{
	struct mmf_cleanup_report rep;
	const char *dir = NULL;
	int r;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--state-dir") && i + 1 < argc) {
			dir = argv[++i];
		} else if (!strcmp(argv[i], "--help")) {
			printf("usage: mmfuzz cleanup [--state-dir DIR]\n");
			return 0;
		} else {
			warnx_("cleanup: unknown argument '%s'", argv[i]);
			return 2;
		}
	}
	r = mmf_cleanup(dir, stdout, &rep);
	printf("cleanup: %d journal(s), %d replayed, %d of live runs left alone,"
	       " %d item(s) undone, %d failed\n",
	       rep.journals, rep.replayed, rep.live, rep.undone, rep.failed);
	if (r < 0)
		warnx_("cleanup: %s", mmf_sys_err());
	return r < 0 ? 1 : 0;
}
