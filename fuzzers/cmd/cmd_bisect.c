// SPDX-License-Identifier: GPL-2.0
/* mmfuzz bisect: the commit that brought a bug in, by git bisect run. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmds.h"
#include "nightly/nightly.h"
#include "store/tally.h"
#include "util/util.h"
#include "vm/vm.h"

static const char epilog[] =
	"CRASHDIR is a bug of a crash store with its reproducer (repro.prog). Each step\n"
	"builds the fuzzing kernel at a commit (cached; a commit that does not build is\n"
	"skipped) and runs the reproducer in guests --tries times: any hit is bad.\n"
	"Both ends are checked first. The tree is not changed: the steps check out a\n"
	"work tree of it under the cache, kept so that the next bisection builds\n"
	"incrementally.\n"
	"exit status: 0 the first bad commit printed, 1 error (not a git tree, an end\n"
	"that is not what it was said to be, the guests failing), 2 usage\n";

/* Paths the steps see from the work tree: absolute. */
static const char *absolute(const char *path)
{
	char *r = path ? realpath(path, NULL) : NULL;

	return r ? r : path;
}

int cmd_bisect(int argc, char **argv)
{
	static const char *hooks[MMF_NIGHTLY_HOOK_ARGS + 1];
	struct mmf_bisect_opts o = {
		.arch = "x86_64", .tries = 6, .mem_mb = 1024, .cpus = 2, .hook_args = hooks,
		.info = stdout,
	};
	bool step = false;
	const struct mmf_opt opts[] = {
		MMF_OPT("tree", "DIR", MMF_OPT_STR, &o.tree, "the git tree to bisect"),
		MMF_OPT("good", "REV", MMF_OPT_STR, &o.good, "a commit without the bug"),
		MMF_OPT("bad", "REV", MMF_OPT_STR, &o.bad, "a commit with it"),
		CMD_OPT_ARCH(&o.arch, .def = "x86_64"),
		MMF_OPT("tries", "N", MMF_OPT_INT, &o.tries,
			"runs of the reproducer per step", .lo = 1, .hi = 1000, .def = "6"),
		MMF_OPT("base", "DIR", MMF_OPT_STR, &o.base,
			"the good commit's tree elsewhere (a tarball's): every step\n"
			"builds it with the commits since --good as a patch, on its objects"),
		CMD_OPT_MEM(&o.mem_mb),
		CMD_OPT_CPUS(&o.cpus),
		MMF_OPT("step", NULL, MMF_OPT_FLAG, &step,
			"one step at the work tree's HEAD (git bisect run's command)", .hook = 1),
		MMF_OPT("hook-arg", "ARG", MMF_OPT_STRS, hooks,
			"a test hook's option for the reproducing guests (repeatable)",
			.hi = MMF_NIGHTLY_HOOK_ARGS, .hook = 1),
		MMF_OPT_END
	};
	const struct mmf_opt *const tables[] = { opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "bisect", .synopsis = "--tree DIR --good REV --bad REV [options] CRASHDIR",
		.tables = tables, .epilog = epilog, .max_args = 1,
	};
	char err[512], *first;
	int i = mmf_opts_parse(&spec, argc, argv);

	if (i == argc || !o.tree || !o.good || !o.bad) {
		mmf_warnx_("bisect: give --tree, --good, --bad and the bug's directory"
			   " (see 'mmfuzz bisect --help')");
		return MMF_EXIT_USAGE;
	}
	if (!mmf_vm_arch_find(o.arch))
		mmf_die("bisect: unknown arch '%s' (x86_64, arm64)", o.arch);
	o.tree = absolute(o.tree);
	o.base = absolute(o.base);
	o.crashdir = absolute(argv[i]);
	if (step)
		return mmf_bisect_step(&o);
	if (mmf_bisect_run(&o, &first, err, sizeof(err))) {
		fflush(stdout);
		mmf_warnx_("bisect: %s", err);
		return MMF_EXIT_ERROR;
	}
	free(first);
	return MMF_EXIT_CLEAN;
}
