/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line options as tables: one entry per option gives its name, its
 * argument, its help, how the argument is parsed and checked and where it
 * goes. The table yields getopt_long's array and the usage text; a
 * default shown in the help is the destination's value before parsing, so
 * it cannot drift from the code. Every command gets -h/--help and
 * --version.
 */
#ifndef MMF_OPTS_H
#define MMF_OPTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum mmf_opt_type {
	MMF_OPT_FLAG,		/* bool *: true */
	MMF_OPT_UNFLAG,		/* bool *: false (a --no-... option) */
	MMF_OPT_STR,		/* const char **: the argument */
	MMF_OPT_STRS,		/* const char *[max]: repeatable, into the first NULL */
	MMF_OPT_INT,		/* int *: a number from lo to hi */
	MMF_OPT_U64,		/* uint64_t *: a number from lo to hi */
	MMF_OPT_MIB,		/* uint64_t * or int64_t *: MiB from lo to hi, kept as bytes */
	MMF_OPT_MS,		/* int64_t *: a duration (500ms, 30s, 10m, 2h), lo ms or more */
	MMF_OPT_FN,		/* fn(arg, dst, err, n): 0, or -1 and a message */
};

struct mmf_opt {
	const char *name;	/* without "--"; NULL ends a table */
	const char *arg;	/* the argument's name in the help, NULL for flags */
	const char *help;	/* may hold "\n" for more lines */
	enum mmf_opt_type type;
	void *dst;
	long long lo, hi;	/* INT, U64, MIB: bounds; MS: the least; STRS: slots */
	int (*fn)(const char *arg, void *dst, char *err, size_t n);
	/*
	 * The help's "(default ...)": NULL prints dst's value where there is
	 * one (numbers, durations, strings set), "" prints none.
	 */
	const char *def;
	int hook;		/* a test hook: listed apart, after the others */
};

struct mmf_cmd_spec {
	const char *name;	/* "campaign": messages are "campaign: ..." */
	const char *synopsis;	/* after "usage: mmfuzz NAME " */
	const struct mmf_opt *const *tables;	/* NULL-terminated */
	const char *epilog;	/* after the options, NULL for none */
	int min_args, max_args;	/* operands after the options; max < 0: any */
};

/* An entry: MMF_OPT("cpus", "N", MMF_OPT_INT, &cpus, "CPUs per guest", .lo = 1, .hi = 64) */
#define MMF_OPT(n, a, t, d, h, ...) \
	{ .name = (n), .arg = (a), .type = (t), .dst = (d), .help = (h), __VA_ARGS__ }
#define MMF_OPT_END { .name = NULL }

/* What --version prints (set by the front end). */
extern const char *mmf_opt_version;

/*
 * Parse argv (argv[0] is the command's name). Returns the index of the
 * first operand. -h/--help prints the usage on stdout and exits 0,
 * --version the version. Before anything is done, one line and an exit:
 * 2 (usage) for an unknown option, a missing argument or a wrong number
 * of operands; 1 (error) for a bad value ("mmfuzz: NAME: --cpus 'abc' is
 * not a number from 1 to 64").
 */
int mmf_opts_parse(const struct mmf_cmd_spec *s, int argc, char **argv);
/* The usage text (defaults as dst holds them now). */
void mmf_opts_usage(const struct mmf_cmd_spec *s, FILE *f);

/* A subcommand of a command ("triage list", "farm jobs"): argv[0] is its name. */
struct mmf_subcmd {
	const char *name;
	int (*fn)(int argc, char **argv);
};

/*
 * Run the subcommand argv names after the command's own options (--help,
 * --version, which s parses; "help" is --help too). Its exit status, or 2
 * with one line for a missing or unknown one.
 */
int mmf_subcmd_run(const struct mmf_cmd_spec *s, const struct mmf_subcmd *cmds, size_t nr,
		   int argc, char **argv);

/* Shared parsers of arguments, as MMF_OPT_FN's fn or alone. */
int mmf_opt_num(const char *s, long long lo, long long hi, long long *v);

#endif
