// SPDX-License-Identifier: GPL-2.0
/* What the commands check of their arguments before any work starts. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmds.h"
#include "util/util.h"

void cmd_writable_dir(const char *cmd, const char *what, const char *dir)
{
	char *probe;
	int fd;

	if (mmf_mkdir_p(dir, 0755))
		mmf_die("%s: cannot create %s %s: %s", cmd, what, dir, strerror(errno));
	/* A file made and removed: access(2) says yes to root on any mode. */
	probe = mmf_xasprintf("%s/.mmfuzz-probe.XXXXXX", dir);
	fd = mkstemp(probe);
	if (fd < 0)
		mmf_die("%s: %s %s is not writable: %s", cmd, what, dir, strerror(errno));
	close(fd);
	unlink(probe);
	free(probe);
}
