// SPDX-License-Identifier: GPL-2.0
/* mmfuzz nightly: one unattended night, from a kernel tree to triaged bugs. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmds.h"
#include "nightly/nightly.h"
#include "store/tally.h"
#include "util/util.h"

static const char epilog[] =
	"One run is one night in the store: the kernels built (cached), a campaign per\n"
	"arch, every new title reproduced on a share of the guests while the rest fuzz,\n"
	"a report per bug (crashes/BUG/report.txt), the night's record\n"
	"(nights/ID/summary.json) and the dashboard (index.html). A new bug with a\n"
	"reproducer, on a git tree that an earlier night fuzzed at another commit, is\n"
	"bisected from that commit to tonight's (crashes/BUG/bisect.log).\n"
	"exit status: 0 no new bug, 3 a bug new tonight, 1 error (a bad tree or kernel,\n"
	"the store in use or unwritable, the guests failing), 2 usage\n";

/* --arch A[,A]: the archs of the night, in turn. */
static int parse_archs(const char *arg, void *dst, char *err, size_t n)
{
	struct mmf_nightly_opts *o = dst;
	char *copy = mmf_xstrdup(arg);

	o->nr_arch = 0;
	for (char *t = strtok(copy, ","); t; t = strtok(NULL, ",")) {
		if (o->nr_arch == MMF_NIGHTLY_MAX_ARCH) {
			snprintf(err, n, "names more than %d archs", MMF_NIGHTLY_MAX_ARCH);
			return -1;
		}
		o->arch[o->nr_arch++] = t;
	}
	if (!o->nr_arch) {
		snprintf(err, n, "names no arch");
		return -1;
	}
	return 0;
}

static volatile int stop;

static void on_stop(int sig)
{
	stop = 1;
}

int cmd_nightly(int argc, char **argv)
{
	static const char *hooks[MMF_NIGHTLY_HOOK_ARGS + 1], *corpus[MMF_NIGHTLY_CORPUS + 1];
	struct mmf_nightly_opts o = {
		.arch = { "x86_64" }, .nr_arch = 1, .budget_ms = 8 * 3600 * 1000ll, .vms = 1,
		.mem_mb = 1024, .cpus = 2, .repro_ms = 20 * 60 * 1000, .fixed_after = 3,
		.corpus = corpus, .hook_args = hooks, .stop = &stop, .info = stdout,
	};
	struct sigaction sa = { .sa_handler = on_stop };
	const struct mmf_opt opts[] = {
		MMF_OPT("tree", "DIR", MMF_OPT_STR, &o.tree, "the kernel tree to build and fuzz"),
		MMF_OPT("store", "DIR", MMF_OPT_STR, &o.store,
			"the nightly store: crashes/, nights/, index.html"),
		MMF_OPT("arch", "A[,A]", MMF_OPT_FN, &o, "x86_64, arm64 or both, in turn",
			.fn = parse_archs, .def = "x86_64"),
		MMF_OPT("budget", "T", MMF_OPT_MS, &o.budget_ms,
			"fuzzing time of the night, shared by the archs", .lo = 1000, .def = "8h"),
		MMF_OPT("vms", "N", MMF_OPT_INT, &o.vms,
			"guests in parallel; a quarter of them (at least one) reproduce\n"
			"while the rest fuzz; one guest reproduces after fuzzing", .lo = 1, .hi = 64),
		CMD_OPT_MEM(&o.mem_mb),
		CMD_OPT_CPUS(&o.cpus),
		MMF_OPT("repro-time", "T", MMF_OPT_MS, &o.repro_ms,
			"the longest a title's reproduction may take", .lo = 1000, .def = "20m"),
		MMF_OPT("fixed-after", "K", MMF_OPT_INT, &o.fixed_after,
			"a bug not seen for K nights is likely fixed", .lo = 1, .hi = 1000,
			.def = "3"),
		MMF_OPT("kernel", "IMAGE", MMF_OPT_STR, &o.kernel,
			"boot this kernel instead of building the tree ('debian': Debian's)"),
		MMF_OPT("engine", "E", MMF_OPT_FN, &o.engine,
			"mmfuzz: the guests' own loop; afl: AFL++ over KCOV",
			.fn = cmd_parse_engine, .def = "mmfuzz"),
		MMF_OPT("corpus", "DIR", MMF_OPT_STRS, corpus,
			"seeds, as campaign --corpus takes them (repeatable); none:\n"
			"generation alone", .hi = MMF_NIGHTLY_CORPUS, .def = "the project's corpus/"),
		MMF_OPT("no-bisect", NULL, MMF_OPT_FLAG, &o.no_bisect,
			"no cause bisection of tonight's new bugs (see mmfuzz bisect)"),
		MMF_OPT("hook-arg", "ARG", MMF_OPT_STRS, hooks,
			"a test hook's option for the fuzzing and reproducing guests\n"
			"alike (repeatable), e.g. --hook-arg --corrupt-tag --hook-arg 0xee",
			.hi = MMF_NIGHTLY_HOOK_ARGS, .hook = 1),
		MMF_OPT_END
	};
	const struct mmf_opt *const tables[] = { opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "nightly", .synopsis = "--tree DIR --store DIR [options]",
		.tables = tables, .epilog = epilog, .max_args = 0,
	};
	char err[512];
	int rc;

	mmf_opts_parse(&spec, argc, argv);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	rc = mmf_nightly_run(&o, err, sizeof(err));
	if (rc < 0) {
		fflush(stdout);
		mmf_warnx_("nightly: %s", err);
		return MMF_EXIT_ERROR;
	}
	return rc;
}
