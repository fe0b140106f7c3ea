// SPDX-License-Identifier: GPL-2.0
/* mmfuzz validate: a base and a patched kernel, side by side. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmds.h"
#include "util/util.h"
#include "validate/validate.h"

static const char epilog[] =
	"A, B: a kernel tree (built as a fuzzing kernel, cached), a kernel image,\n"
	"'default' (the newest 'make kernel', else Debian's) or 'debian'.\n"
	"Writes DIR/verdict.txt and DIR/verdict.json; exit 3 if anything regressed.\n";

/* A finite real number and nothing after it (the tables' numbers are integers). */
static int real(const char *arg, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(arg, &end);
	return errno || end == arg || *end || !isfinite(*v) ? -1 : 0;
}

static int parse_alpha(const char *arg, void *dst, char *err, size_t n)
{
	double v;

	if (real(arg, &v) || v <= 0 || v >= 1) {
		snprintf(err, n, "is not a number in (0, 1)");
		return -1;
	}
	*(double *)dst = v;
	return 0;
}

static int parse_change(const char *arg, void *dst, char *err, size_t n)
{
	double v;

	if (real(arg, &v) || v < 0) {
		snprintf(err, n, "is not a number of 0 or more");
		return -1;
	}
	*(double *)dst = v;
	return 0;
}

static int parse_runs(const char *arg, void *dst, char *err, size_t n)
{
	long long v;

	if (!strcmp(arg, "auto")) {
		*(int *)dst = 0;
		return 0;
	}
	if (mmf_opt_num(arg, 2, 1000, &v)) {
		snprintf(err, n, "is not 'auto' or a number from 2 to 1000");
		return -1;
	}
	*(int *)dst = v;
	return 0;
}

/*
 * The defaults answer "may this go in?": both kernels fuzzed aimed at the
 * patch for VALIDATE_BUDGET each (docs/validate.md says why the number),
 * and the benchmarks that reach the changed functions.
 */
#define VALIDATE_BUDGET_MS	(30 * 60 * 1000)

static struct mmf_validate_opts vo = {
	.benches = "auto", .budget_ms = VALIDATE_BUDGET_MS, .runs = 5, .attempts = 3,
	.alpha = 0.05, .min_change = 0.05, .repro_ms = 600000, .mutants = 4, .behaviour = 8,
	.tested_by = "mmfuzz <mmfuzz@localhost>",
};
static const char *vo_arch = "x86_64";
#define BASE	(vo.side[MMF_BASE])
#define PATCHED	(vo.side[MMF_PATCHED])

static const struct mmf_opt validate_opts[] = {
	MMF_OPT("base", "A", MMF_OPT_STR, &BASE.src, "the base kernel"),
	MMF_OPT("patched", "B", MMF_OPT_STR, &PATCHED.src, "the patched kernel"),
	MMF_OPT("patch", "FILE", MMF_OPT_STRS, PATCHED.patches,
		"patched = a copy of the tree A with FILE applied: a diff, a git\n"
		"format-patch file or an mbox of a series (repeatable, in order)",
		.hi = ARRAY_SIZE(PATCHED.patches) - 1),
	CMD_OPT_ARCH(&vo_arch),
	MMF_OPT("store", "DIR", MMF_OPT_STR, &vo.store,
		"run the reproducers of this crash store"),
	MMF_OPT("corpus", "DIR", MMF_OPT_STR, &vo.corpus, "run these .mmf programs",
		.def = "none"),
	MMF_OPT("seeds", "DIR", MMF_OPT_STR, &vo.seeds,
		"fuzzing starts from these .mmf programs ('none': generation\n"
		"alone)", .def = "the project's corpus/"),
	MMF_OPT("attempts", "N", MMF_OPT_INT, &vo.attempts, "runs of each per kernel",
		.lo = 1, .hi = 1000),
	MMF_OPT("bench", "LIST", MMF_OPT_STR, &vo.benches,
		"auto (those whose run on the patched kernel reaches a changed\n"
		"function), all, none, or NAME,NAME...", .def = "auto"),
	MMF_OPT("runs", "N", MMF_OPT_FN, &vo.runs,
		"benchmark runs per kernel, or 'auto': until every change's interval\n"
		"is within +-min-change/2 (3 to 20 runs)", .fn = parse_runs, .def = "5"),
	MMF_OPT("budget", "T", MMF_OPT_MS, &vo.budget_ms,
		"fuzz each kernel this long (0: no fuzzing)", .def = "30m"),
	MMF_OPT("repro-time", "T", MMF_OPT_MS, &vo.repro_ms,
		"reproducing a patched-only title, at most", .def = "10m"),
	MMF_OPT("behaviour", "N", MMF_OPT_INT, &vo.behaviour,
		"compare on both kernels what the first N programs that reached\n"
		"a changed function do (0: none)", .lo = 0, .hi = 1000, .def = "8"),
	MMF_OPT("mutants", "N", MMF_OPT_INT, &vo.mutants,
		"mutated reproducers tried on the base", .lo = 0, .hi = 100),
	MMF_OPT("tested-by", "ID", MMF_OPT_STR, &vo.tested_by,
		"the Tested-by: line's 'Name <address>' when nothing regressed"),
	MMF_OPT("alpha", "P", MMF_OPT_FN, &vo.alpha, "family-wise significance level",
		.fn = parse_alpha, .def = "0.05"),
	MMF_OPT("min-change", "F", MMF_OPT_FN, &vo.min_change,
		"smaller relative changes are noise", .fn = parse_change, .def = "0.05"),
	MMF_OPT("base-append", "ARGS", MMF_OPT_STR, &BASE.append,
		"more kernel command line for the base kernel"),
	MMF_OPT("patched-append", "ARGS", MMF_OPT_STR, &PATCHED.append,
		"more kernel command line for the patched kernel"),
	MMF_OPT("base-guest-arg", "ARG", MMF_OPT_STRS, BASE.guest_args,
		"pass ARG to the base guest's mmfuzz (repeatable)",
		.hi = ARRAY_SIZE(BASE.guest_args) - 1),
	MMF_OPT("patched-guest-arg", "ARG", MMF_OPT_STRS, PATCHED.guest_args,
		"pass ARG to the patched guest's mmfuzz (repeatable)",
		.hi = ARRAY_SIZE(PATCHED.guest_args) - 1),
	CMD_OPT_OUT(&vo.out, "guests' consoles, campaigns, verdict.txt and verdict.json"),
	MMF_OPT_END
};

int cmd_validate(int argc, char **argv)
{
	const struct mmf_opt *const tables[] = { validate_opts, NULL };
	struct mmf_validate_side *base = &BASE, *patched = &PATCHED;
	struct mmf_validate_opts *o = &vo;
	const struct mmf_cmd_spec spec = {
		.name = "validate",
		.synopsis = "--base A (--patched B | --patch FILE) --out DIR [options]",
		.tables = tables, .epilog = epilog, .max_args = 0,
	};
	char err[512];
	int rc;

	mmf_opts_parse(&spec, argc, argv);
	if (!patched->src && patched->patches[0])
		patched->src = base->src;
	if (!base->src || !patched->src || !o->out)
		mmf_die("validate: give --base, --patched (or --patch) and --out (see --help)");
	o->arch = mmf_vm_arch_find(vo_arch);
	if (!o->arch)
		mmf_die("validate: unknown arch '%s' (x86_64, arm64)", vo_arch);
	if (o->seeds && strcmp(o->seeds, "none") && !mmf_is_dir(o->seeds))
		mmf_die("validate: seeds %s: not a directory", o->seeds);
	cmd_writable_dir("validate", "output directory", o->out);
	o->info = stdout;
	rc = mmf_validate(o, err, sizeof(err));
	if (rc < 0)
		mmf_die("validate: %s", err);
	return rc;
}
