// SPDX-License-Identifier: GPL-2.0
/* mmfuzz: dispatch to a subcommand, git/perf style. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmds.h"
#include "util/util.h"

static const struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} cmds[] = {
	{ "fuzz", cmd_fuzz, "fuzz the running kernel (--native) with generated programs" },
	{ "exec", cmd_exec, "run text programs once and print per-call results and reports" },
	{ "gen", cmd_gen, "generate, mutate, decode or check programs" },
	{ "cleanup", cmd_cleanup, "remove swap devices, cgroups and knob changes a killed run left" },
	{ "triage", cmd_triage, "parse kernel reports out of console logs" },
	{ "symbolize", cmd_symbolize, "add source lines and inlined frames to a kernel report" },
	{ "vm", cmd_vm, "boot one guest (QEMU) that fuzzes its kernel, KVM or TCG" },
	{ "campaign", cmd_campaign, "fuzz in N guests in parallel, findings into a crash store" },
	{ "repro", cmd_repro, "find and minimize the reproducer of a saved crash" },
	{ "bench", cmd_bench, "run the mm benchmarks (swap, PAGEOUT, mlock) on this kernel" },
	{ "validate", cmd_validate, "compare a base and a patched kernel: reproducers, benchmarks, fuzzing" },
	{ "stress", cmd_stress, "run stressors (reclaim, swap, large folios, KSM...) alone" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: mmfuzz <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++)
		fprintf(f, "  %-9s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "\n'mmfuzz <command> --help' describes a command's options.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	warnx_("unknown command '%s' (see 'mmfuzz --help')", argv[1]);
	return 2;
}
