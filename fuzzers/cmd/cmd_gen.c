// SPDX-License-Identifier: GPL-2.0
/* mmfuzz gen: the model's generator, mutator and codecs, from the shell. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmds.h"
#include "csource/csource.h"
#include "model/prog.h"
#include "util/rand.h"
#include "util/util.h"

static const char synopsis[] =
	"[--seed N] [--count K] [--calls N]\n"
	"       mmfuzz gen --mutate FILE [--seed N]\n"
	"       mmfuzz gen --decode FILE\n"
	"       mmfuzz gen --encode FILE\n"
	"       mmfuzz gen --check FILE...\n"
	"       mmfuzz gen --csource FILE";

static const char epilog[] = "Program i of a run has seed N + i.\n";

enum mode { GENERATE, MUTATE, DECODE, ENCODE, CHECK, CSOURCE };

/* Parse a text program; errors read "FILE: line N: reason". */
static int load(const char *path, struct mmf_prog *p)
{
	char err[256], *text;
	size_t len;
	int ret = -1;

	text = mmf_read_file(path, &len);
	if (!text) {
		mmf_warnx_("%s: %s", path, strerror(errno));
	} else if (memchr(text, '\0', len)) {
		mmf_warnx_("%s: not a text program (NUL byte)", path);
	} else {
		ret = mmf_prog_parse(text, p, err, sizeof(err));
		if (ret)
			mmf_warnx_("%s: %s", path, err);
	}
	free(text);
	return ret;
}

/* Print p as text or as C (fmt: mmf_prog_print or mmf_prog_csource). */
static void print(const struct mmf_prog *p,
		  void (*fmt)(const struct mmf_prog *p, struct strbuf *sb))
{
	struct strbuf sb;

	mmf_sb_init(&sb);
	fmt(p, &sb);
	fwrite(sb.buf, 1, sb.len, stdout);
	mmf_sb_free(&sb);
}

static int run(enum mode mode, const char *file, uint64_t seed, uint64_t count,
	       int calls, char **files, int nr_files)
{
	struct mmf_prog p;
	struct mmf_rand r;
	uint8_t *buf;
	char *data;
	size_t len;
	int ret = 0;

	switch (mode) {
	case GENERATE:
		for (uint64_t i = 0; i < count; i++) {
			mmf_rand_seed(&r, seed + i);
			mmf_prog_generate(&r, calls, &p);
			printf("%s# program %llu, seed %llu\n", i ? "\n" : "",
			       (unsigned long long)i, (unsigned long long)(seed + i));
			print(&p, mmf_prog_print);
		}
		break;
	case MUTATE:
		if (load(file, &p))
			return 1;
		mmf_rand_seed(&r, seed);
		mmf_prog_mutate(&r, &p, NULL);
		printf("# %s mutated, seed %llu\n", file, (unsigned long long)seed);
		print(&p, mmf_prog_print);
		break;
	case DECODE:
		data = mmf_read_file(file, &len);
		if (!data)
			mmf_die("%s: %s", file, strerror(errno));
		mmf_prog_decode((const uint8_t *)data, len, &p);
		free(data);
		print(&p, mmf_prog_print);
		break;
	case ENCODE:
		if (load(file, &p))
			return 1;
		len = mmf_prog_encode(&p, NULL, 0);
		buf = mmf_xmalloc(len);
		mmf_prog_encode(&p, buf, len);
		ret = mmf_write_all(STDOUT_FILENO, buf, len);
		free(buf);
		break;
	case CSOURCE:
		if (load(file, &p))
			return 1;
		print(&p, mmf_prog_csource);
		break;
	case CHECK:
		for (int i = 0; i < nr_files; i++) {
			if (load(files[i], &p))
				ret = 1;
			else
				printf("%s: ok (%d calls)\n", files[i], mmf_prog_nr_calls(&p));
		}
		break;
	}
	if (fflush(stdout) || ret < 0)
		mmf_die("gen: writing to stdout: %s", strerror(errno));
	return ret;
}

int cmd_gen(int argc, char **argv)
{
	uint64_t seed = mmf_now_ns(), count = 1;
	const char *file[CSOURCE + 1] = { NULL };	/* the FILE of each mode's option */
	bool check = false;
	int calls = 32;
	const struct mmf_opt opts[] = {
		CMD_OPT_SEED(&seed),
		MMF_OPT("count", "K", MMF_OPT_U64, &count, "number of programs to generate",
			.hi = INT64_MAX),
		MMF_OPT("calls", "N", MMF_OPT_INT, &calls, "statements per program",
			.lo = 1, .hi = MMF_MAX_STMTS),
		MMF_OPT("mutate", "FILE", MMF_OPT_STR, &file[MUTATE],
			"print a mutant of the text program in FILE"),
		MMF_OPT("decode", "FILE", MMF_OPT_STR, &file[DECODE],
			"print the program that the bytes of FILE decode to"),
		MMF_OPT("encode", "FILE", MMF_OPT_STR, &file[ENCODE],
			"write the bytes of the text program in FILE to stdout"),
		MMF_OPT("check", NULL, MMF_OPT_FLAG, &check,
			"parse each text program FILE, print its call count"),
		MMF_OPT("csource", "FILE", MMF_OPT_STR, &file[CSOURCE],
			"print a standalone C reproducer of the text program in FILE\n"
			"(gcc -O2 -pthread; it carries the program in a comment)"),
		MMF_OPT_END
	};
	const struct mmf_opt *const tables[] = { opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "gen", .synopsis = synopsis, .tables = tables, .epilog = epilog,
		.max_args = -1,
	};
	int first = mmf_opts_parse(&spec, argc, argv);
	enum mode mode = check ? CHECK : GENERATE;

	for (enum mode m = MUTATE; m <= CSOURCE; m++) {
		if (!file[m])
			continue;
		if (mode != GENERATE) {
			mmf_warnx_("gen: --mutate, --decode, --encode, --check and --csource exclude "
			       "each other");
			return 2;
		}
		mode = m;
	}
	/* Only --check takes operands, and needs them. */
	if (mode == CHECK && first == argc) {
		mmf_warnx_("gen: an operand is missing (see 'mmfuzz gen --help')");
		return 2;
	}
	if (mode != CHECK && first < argc) {
		mmf_warnx_("gen: unexpected argument '%s' (see 'mmfuzz gen --help')", argv[first]);
		return 2;
	}
	return run(mode, file[mode], seed, count, calls, argv + first, argc - first);
}
