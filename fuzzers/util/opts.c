// SPDX-License-Identifier: GPL-2.0
/* Option tables: getopt_long's array, the checks and the usage from one table. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/opts.h"
#include "util/util.h"

/* Exit statuses of README's table. */
#define EXIT_BAD_VALUE	1
#define EXIT_USAGE	2
/* getopt_long's values for options of tables: index + this. */
#define OPT_BASE	256
#define MAX_OPTS	128

const char *mmf_opt_version = "mmfuzz";

int mmf_opt_num(const char *s, long long lo, long long hi, long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 0);
	return errno || end == s || *end || *v < lo || *v > hi ? -1 : 0;
}

static int nr_opts(const struct mmf_cmd_spec *s, const struct mmf_opt **all)
{
	int n = 0;

	for (int t = 0; s->tables && s->tables[t]; t++)
		for (const struct mmf_opt *o = s->tables[t]; o->name; o++) {
			if (n == MAX_OPTS)
				mmf_die("%s: more than %d options", s->name, MAX_OPTS);
			all[n++] = o;
		}
	return n;
}

static void fmt_ms(char *buf, size_t n, int64_t ms)
{
	if (ms && ms % 3600000 == 0)
		snprintf(buf, n, "%lldh", (long long)ms / 3600000);
	else if (ms && ms % 60000 == 0)
		snprintf(buf, n, "%lldm", (long long)ms / 60000);
	else if (ms % 1000 == 0)
		snprintf(buf, n, "%llds", (long long)ms / 1000);
	else
		snprintf(buf, n, "%lldms", (long long)ms);
}

/* The default as dst holds it, "" when there is nothing to say. */
static void def_of(const struct mmf_opt *o, char *buf, size_t n)
{
	buf[0] = 0;
	if (o->def) {
		snprintf(buf, n, "%s", o->def);
		return;
	}
	switch (o->type) {
	case MMF_OPT_STR:
		if (*(const char **)o->dst)
			snprintf(buf, n, "%s", *(const char **)o->dst);
		break;
	case MMF_OPT_INT:
		snprintf(buf, n, "%d", *(int *)o->dst);
		break;
	case MMF_OPT_U64:
		snprintf(buf, n, "%llu", (unsigned long long)*(uint64_t *)o->dst);
		break;
	case MMF_OPT_MIB:
		snprintf(buf, n, "%llu", (unsigned long long)(*(uint64_t *)o->dst >> 20));
		break;
	case MMF_OPT_MS:
		fmt_ms(buf, n, *(int64_t *)o->dst);
		break;
	default:
		break;
	}
}

static void print_opt(const struct mmf_opt *o, FILE *f)
{
	char head[64], def[128];
	const char *h = o->help;
	size_t len;

	snprintf(head, sizeof(head), "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
	def_of(o, def, sizeof(def));
	fprintf(f, "  %-20s", head);
	if (strlen(head) > 20)
		fprintf(f, "\n  %-20s", "");
	for (;;) {
		len = strcspn(h, "\n");
		fprintf(f, " %.*s", (int)len, h);
		if (!h[len])
			break;
		h += len + 1;
		fprintf(f, "\n  %-20s", "");
	}
	if (def[0])
		fprintf(f, " (default %s)", def);
	fputc('\n', f);
}

void mmf_opts_usage(const struct mmf_cmd_spec *s, FILE *f)
{
	const struct mmf_opt *all[MAX_OPTS];
	int n = nr_opts(s, all);
	bool hooks = false;

	fprintf(f, "usage: mmfuzz %s %s\n", s->name, s->synopsis ? s->synopsis : "[options]");
	for (int i = 0; i < n; i++) {
		if (!all[i]->hook)
			print_opt(all[i], f);
		hooks |= all[i]->hook;
	}
	fprintf(f, "  %-20s this help; --version: the version\n", "--help, -h");
	if (hooks) {
		fprintf(f, "test hooks (they fake what the tests must see happen):\n");
		for (int i = 0; i < n; i++)
			if (all[i]->hook)
				print_opt(all[i], f);
	}
	if (s->epilog)
		fputs(s->epilog, f);
}

static void bad_value(const struct mmf_cmd_spec *s, const struct mmf_opt *o, const char *arg,
		      const char *why)
{
	mmf_warnx_("%s: --%s '%s' %s", s->name, o->name, arg, why);
	exit(EXIT_BAD_VALUE);
}

static void apply(const struct mmf_cmd_spec *s, const struct mmf_opt *o, const char *arg)
{
	char err[256], why[128];
	long long v;
	int64_t ms;
	int i;

	switch (o->type) {
	case MMF_OPT_FLAG:
	case MMF_OPT_UNFLAG:
		*(bool *)o->dst = o->type == MMF_OPT_FLAG;
		return;
	case MMF_OPT_STR:
		*(const char **)o->dst = arg;
		return;
	case MMF_OPT_STRS:
		for (i = 0; i < o->hi && ((const char **)o->dst)[i]; i++)
			;
		if (i == o->hi) {
			mmf_warnx_("%s: --%s given more than %lld times", s->name, o->name, o->hi);
			exit(EXIT_BAD_VALUE);
		}
		((const char **)o->dst)[i] = arg;
		return;
	case MMF_OPT_INT:
	case MMF_OPT_U64:
	case MMF_OPT_MIB:
		if (mmf_opt_num(arg, o->lo, o->hi, &v)) {
			snprintf(why, sizeof(why), "is not a number from %lld to %lld", o->lo, o->hi);
			bad_value(s, o, arg, why);
		}
		if (o->type == MMF_OPT_INT)
			*(int *)o->dst = (int)v;
		else if (o->type == MMF_OPT_U64)
			*(uint64_t *)o->dst = (uint64_t)v;
		else
			*(uint64_t *)o->dst = (uint64_t)v << 20;
		return;
	case MMF_OPT_MS:
		ms = mmf_parse_duration_ms(arg);
		if (ms < 0 || ms < o->lo) {
			char least[32];

			fmt_ms(least, sizeof(least), o->lo);
			snprintf(why, sizeof(why), "is not a duration of at least %s (e.g. 90s, 10m, 2h)",
				 least);
			bad_value(s, o, arg, why);
		}
		*(int64_t *)o->dst = ms;
		return;
	case MMF_OPT_FN:
		err[0] = 0;
		if (o->fn(arg, o->dst, err, sizeof(err)))
			bad_value(s, o, arg, err);
		return;
	}
}

int mmf_opts_parse(const struct mmf_cmd_spec *s, int argc, char **argv)
{
	const struct mmf_opt *all[MAX_OPTS];
	struct option lo[MAX_OPTS + 3];
	int n = nr_opts(s, all), c, ops;

	for (int i = 0; i < n; i++)
		lo[i] = (struct option){ all[i]->name,
					 all[i]->arg ? required_argument : no_argument, NULL,
					 OPT_BASE + i };
	lo[n] = (struct option){ "help", no_argument, NULL, 'h' };
	lo[n + 1] = (struct option){ "version", no_argument, NULL, 'V' };
	lo[n + 2] = (struct option){ 0 };
	/* Messages are ours: one line, naming the command. */
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", lo, NULL)) != -1) {
		if (c == 'h') {
			mmf_opts_usage(s, stdout);
			exit(0);
		}
		if (c == 'V') {
			printf("%s\n", mmf_opt_version);
			exit(0);
		}
		if (c == ':') {
			mmf_warnx_("%s: %s needs an argument (see 'mmfuzz %s --help')", s->name,
			       argv[optind - 1], s->name);
			exit(EXIT_USAGE);
		}
		if (c == '?') {
			mmf_warnx_("%s: unknown option '%s' (see 'mmfuzz %s --help')", s->name,
			       argv[optind - 1], s->name);
			exit(EXIT_USAGE);
		}
		apply(s, all[c - OPT_BASE], optarg);
	}
	ops = argc - optind;
	if (ops < s->min_args || (s->max_args >= 0 && ops > s->max_args)) {
		if (ops > 0 && s->max_args >= 0 && ops > s->max_args)
			mmf_warnx_("%s: unexpected argument '%s' (see 'mmfuzz %s --help')", s->name,
			       argv[optind + s->max_args], s->name);
		else
			mmf_warnx_("%s: %s (see 'mmfuzz %s --help')", s->name,
			       s->min_args == 1 ? "an operand is missing" : "operands are missing",
			       s->name);
		exit(EXIT_USAGE);
	}
	return optind;
}

int mmf_subcmd_run(const struct mmf_cmd_spec *s, const struct mmf_subcmd *cmds, size_t nr,
		   int argc, char **argv)
{
	int i = 1;

	/*
	 * Only what comes before the subcommand is the command's: the
	 * parser would take the subcommand's options too.
	 */
	while (i < argc && argv[i][0] == '-')
		i++;
	mmf_opts_parse(s, i, argv);
	if (i == argc) {
		mmf_warnx_("%s: missing subcommand (see 'mmfuzz %s --help')", s->name, s->name);
		return 2;
	}
	if (!strcmp(argv[i], "help")) {
		mmf_opts_usage(s, stdout);
		return 0;
	}
	for (size_t k = 0; k < nr; k++)
		if (!strcmp(argv[i], cmds[k].name))
			return cmds[k].fn(argc - i, argv + i);
	mmf_warnx_("%s: unknown subcommand '%s' (see 'mmfuzz %s --help')", s->name, argv[i],
		   s->name);
	return 2;
}
