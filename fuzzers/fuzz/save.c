// SPDX-License-Identifier: GPL-2.0
/* Reports of the native fuzz loop go into the crash store, OUT/crashes. */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "fuzz/fuzz.h"
#include "util/util.h"

/* Titles of mmfuzz's own oracles: every other report came from the kernel. */
static const char *const oracle_prefixes[] = { "DATA CORRUPTION:", "ACCOUNTING:" };

static bool kernel_report(const char *title)
{
	for (size_t i = 0; i < ARRAY_SIZE(oracle_prefixes); i++)
		if (!strncmp(title, oracle_prefixes[i], strlen(oracle_prefixes[i])))
			return false;
	return true;
}

int mmf_save_crash(const char *out, const struct mmf_exec_report *r, const struct mmf_prog *p,
		   struct mmf_store_added *res)
{
	char *dir = xasprintf("%s/crashes", out), *kernel = NULL;
	struct mmf_crash c = { .title = r->title, .report = r->body };
	struct utsname u;
	struct strbuf prog;
	int ret;

	sb_init(&prog);
	mmf_prog_print(p, &prog);
	c.progs = prog.buf ? prog.buf : "";
	/* The kernel-log oracle's report text is the log around the report. */
	if (kernel_report(r->title))
		c.log = r->body;
	if (!uname(&u)) {
		kernel = xasprintf("%s %s", u.release, u.version);
		c.kernel = kernel;
		c.arch = u.machine;
	}
	ret = mmf_store_add(dir, &c, res);
	free(kernel);
	free(dir);
	sb_free(&prog);
	return ret;
}
