// SPDX-License-Identifier: GPL-2.0
/*
 * The option tables' parser: values land where the table says, bad values
 * and bad options get one line and the README's exit status before
 * anything is done, and the usage shows every option with its default as
 * the code holds it.
 */
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>

#include "tap.h"
#include "util/opts.h"
#include "util/util.h"

struct vals {
	bool flag, zram;
	const char *str, *strs[3];
	int n;
	uint64_t seed, bytes;
	int64_t ms;
	int pair[2];
};

static int parse_pair(const char *arg, void *dst, char *err, size_t n)
{
	int *p = dst;

	if (sscanf(arg, "%d:%d", &p[0], &p[1]) != 2) {
		snprintf(err, n, "wants A:B");
		return -1;
	}
	return 0;
}

static struct vals v;
static const struct mmf_opt table[] = {
	MMF_OPT("flag", NULL, MMF_OPT_FLAG, &v.flag, "a flag"),
	MMF_OPT("no-zram", NULL, MMF_OPT_UNFLAG, &v.zram, "no zram"),
	MMF_OPT("str", "S", MMF_OPT_STR, &v.str, "a string"),
	MMF_OPT("strs", "S", MMF_OPT_STRS, v.strs, "repeatable", .hi = 2),
	MMF_OPT("n", "N", MMF_OPT_INT, &v.n, "a number\nof two lines", .lo = 1, .hi = 64),
	MMF_OPT("seed", "N", MMF_OPT_U64, &v.seed, "a seed", .hi = INT64_MAX,
		.def = "from the clock"),
	MMF_OPT("mem", "MB", MMF_OPT_MIB, &v.bytes, "memory", .hi = 1024),
	MMF_OPT("time", "T", MMF_OPT_MS, &v.ms, "a duration", .lo = 1000),
	MMF_OPT("pair", "A:B", MMF_OPT_FN, v.pair, "a pair", .fn = parse_pair),
	MMF_OPT("hook", NULL, MMF_OPT_FLAG, &v.flag, "fakes a thing", .hook = 1),
	MMF_OPT_END
};
static const struct mmf_opt *const tables[] = { table, NULL };
static const struct mmf_cmd_spec spec = {
	.name = "t", .synopsis = "[options] FILE...", .tables = tables,
	.epilog = "the end\n", .min_args = 1, .max_args = 2,
};

static void reset(void)
{
	memset(&v, 0, sizeof(v));
	v.zram = true;
	v.n = 24;
	v.ms = 600000;
	v.bytes = 256ull << 20;
}

/* Parse in a child: its exit status, and what it printed (both streams). */
static int run(const char *const *args, char *out, size_t n)
{
	char *argv[32];
	int fds[2], st, argc = 0;
	size_t len = 0;
	ssize_t r;
	pid_t pid;

	argv[argc++] = "t";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	CHECK(!pipe(fds), "pipe");
	fflush(stdout);
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (!pid) {
		int first;

		dup2(fds[1], 1);
		dup2(fds[1], 2);
		reset();
		first = mmf_opts_parse(&spec, argc, argv);
		printf("first=%d flag=%d zram=%d str=%s strs=%s,%s n=%d seed=%llu mb=%llu ms=%lld"
		       " pair=%d:%d\n", first, v.flag, v.zram, v.str ? v.str : "-",
		       v.strs[0] ? v.strs[0] : "-", v.strs[1] ? v.strs[1] : "-", v.n,
		       (unsigned long long)v.seed, (unsigned long long)(v.bytes >> 20),
		       (long long)v.ms, v.pair[0], v.pair[1]);
		exit(0);
	}
	close(fds[1]);
	while (len < n - 1 && (r = read(fds[0], out + len, n - 1 - len)) > 0)
		len += r;
	out[len] = 0;
	close(fds[0]);
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st), "status %#x", st);
	return WEXITSTATUS(st);
}

static void test_values(void)
{
	static const char *const args[] = {
		"--flag", "--no-zram", "--str", "x", "--strs", "a", "--strs=b", "--n", "0x10",
		"--seed", "18446744", "--mem", "64", "--time", "90s", "--pair", "3:4", "f", NULL
	};
	static const char *const none[] = { "f", "g", NULL };
	char out[4096];

	CHECK(run(args, out, sizeof(out)) == 0, "%s", out);
	CHECK(!strcmp(out, "first=18 flag=1 zram=0 str=x strs=a,b n=16 seed=18446744 mb=64"
		      " ms=90000 pair=3:4\n"), "%s", out);
	/* Nothing given: the defaults stay; operands after options or before. */
	CHECK(run(none, out, sizeof(out)) == 0, "%s", out);
	CHECK(strstr(out, "first=1 flag=0 zram=1 str=- strs=-,- n=24 seed=0 mb=256 ms=600000"),
	      "%s", out);
}

static void test_errors(void)
{
	static const struct {
		const char *args[6];
		int status;
		const char *msg;
	} cases[] = {
		{ { "--n", "abc", "f" }, 1, "mmfuzz: t: --n 'abc' is not a number from 1 to 64\n" },
		{ { "--n", "65", "f" }, 1, "mmfuzz: t: --n '65' is not a number from 1 to 64\n" },
		{ { "--n", "", "f" }, 1, "mmfuzz: t: --n '' is not a number from 1 to 64\n" },
		{ { "--mem", "-1", "f" }, 1, "mmfuzz: t: --mem '-1' is not a number from 0 to 1024\n" },
		{ { "--time", "soon", "f" }, 1,
		  "mmfuzz: t: --time 'soon' is not a duration of at least 1s" },
		{ { "--time", "10ms", "f" }, 1,
		  "mmfuzz: t: --time '10ms' is not a duration of at least 1s" },
		{ { "--pair", "3", "f" }, 1, "mmfuzz: t: --pair '3' wants A:B\n" },
		{ { "--strs", "a", "--strs", "b", "--strs", "c" }, 1,
		  "mmfuzz: t: --strs given more than 2 times\n" },
		{ { "--bogus", "f" }, 2, "mmfuzz: t: unknown option '--bogus' (see 'mmfuzz t --help')\n" },
		{ { "f", "--n" }, 2, "mmfuzz: t: --n needs an argument" },
		{ { "--flag" }, 2, "mmfuzz: t: an operand is missing" },
		{ { "f", "g", "h" }, 2, "mmfuzz: t: unexpected argument 'h'" },
	};
	char out[4096];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int st = run(cases[i].args, out, sizeof(out));

		CHECK(st == cases[i].status, "case %zu: exit %d, want %d: %s", i, st,
		      cases[i].status, out);
		CHECK(!strncmp(out, cases[i].msg, strlen(cases[i].msg)), "case %zu: '%s'", i, out);
		CHECK(strchr(out, '\n') == out + strlen(out) - 1, "case %zu: not one line: %s", i,
		      out);
	}
}

static void test_usage(void)
{
	static const char *const help[] = { "--help", NULL };
	static const char *const h[] = { "-h", NULL };
	static const char *const version[] = { "--version", NULL };
	static const char *const want[] = {
		"usage: mmfuzz t [options] FILE...\n",
		"  --flag               a flag\n",
		"  --n N                a number\n                       of two lines (default 24)\n",
		"  --seed N             a seed (default from the clock)\n",
		"  --mem MB             memory (default 256)\n",
		"  --time T             a duration (default 10m)\n",
		"test hooks (they fake what the tests must see happen):\n  --hook ",
		"the end\n",
	};
	char out[8192], out2[8192];

	CHECK(run(help, out, sizeof(out)) == 0, "--help: %s", out);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		CHECK(strstr(out, want[i]), "'%s' not in:\n%s", want[i], out);
	/* The hook is listed once, under its heading. */
	CHECK(strstr(out, "--hook") > strstr(out, "test hooks") &&
	      !strstr(strstr(out, "--hook") + 1, "--hook"), "%s", out);
	CHECK(run(h, out2, sizeof(out2)) == 0 && !strcmp(out, out2), "-h differs");
	CHECK(run(version, out, sizeof(out)) == 0 && !strcmp(out, "mmfuzz\n"), "%s", out);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_values),
	TAP_TEST(test_errors),
	TAP_TEST(test_usage),
};

int main(void)
{
	return tap_run(tests);
}
