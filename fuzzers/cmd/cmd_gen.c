// SPDX-License-Identifier: GPL-2.0
/* mmfuzz gen: the model's generator, mutator and codecs, from the shell. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmds.h"
#include "model/prog.h"
#include "oracle/csource.h"
#include "util/rand.h"
#include "util/util.h"

static const char usage_text[] =
	"usage: mmfuzz gen [--seed N] [--count K] [--calls N]\n"
	"       mmfuzz gen --mutate FILE [--seed N]\n"
	"       mmfuzz gen --decode FILE\n"
	"       mmfuzz gen --encode FILE\n"
	"       mmfuzz gen --check FILE...\n"
	"       mmfuzz gen --csource FILE\n"
	"\n"
	"  --seed N       seed of the generator (default: from the clock);\n"
	"                 program i of a run has seed N + i\n"
	"  --count K      number of programs to generate (default 1)\n"
	"  --calls N      statements per program, 1..128 (default 32)\n"
	"  --mutate FILE  print a mutant of the text program in FILE\n"
	"  --decode FILE  print the program that the bytes of FILE decode to\n"
	"  --encode FILE  write the bytes of the text program in FILE to stdout\n"
	"  --check        parse each text program FILE, print its call count\n"
	"  --csource FILE print a standalone C reproducer of the text program in FILE\n"
	"                 (gcc -O2 -pthread; it carries the program in a comment)\n";

enum mode { GENERATE, MUTATE, DECODE, ENCODE, CHECK, CSOURCE };

static uint64_t parse_num(const char *opt, const char *s, uint64_t min, uint64_t max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v < min || v > max)
		die("gen: bad --%s '%s'", opt, s);
	return v;
}

/* Parse a text program; errors read "FILE: line N: reason". */
static int load(const char *path, struct mmf_prog *p)
{
	char err[256], *text;
	size_t len;
	int ret = -1;

	text = read_file(path, &len);
	if (!text)
		warnx_("%s: %s", path, strerror(errno));
	else if (memchr(text, '\0', len))
		warnx_("%s: not a text program (NUL byte)", path);
	else if ((ret = mmf_prog_parse(text, p, err, sizeof(err))))
		warnx_("%s: %s", path, err);
	free(text);
	return ret;
}

/* Print p as text or as C (fmt: mmf_prog_print or mmf_prog_csource). */
static void print(const struct mmf_prog *p,
		  void (*fmt)(const struct mmf_prog *p, struct strbuf *sb))
{
	struct strbuf sb;

	sb_init(&sb);
	fmt(p, &sb);
	fwrite(sb.buf, 1, sb.len, stdout);
	sb_free(&sb);
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
		print(&p, mmf_prog_print);
		break;
	case DECODE:
		data = read_file(file, &len);
		if (!data)
			die("%s: %s", file, strerror(errno));
		mmf_prog_decode((const uint8_t *)data, len, &p);
		free(data);
		print(&p, mmf_prog_print);
		break;
	case ENCODE:
		if (load(file, &p))
			return 1;
		len = mmf_prog_encode(&p, NULL, 0);
		buf = xmalloc(len);
		mmf_prog_encode(&p, buf, len);
		ret = write_all(STDOUT_FILENO, buf, len);
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
		die("gen: writing to stdout: %s", strerror(errno));
	return ret;
}

int cmd_gen(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'n' },
		{ "calls", required_argument, NULL, 'c' },
		{ "mutate", required_argument, NULL, MUTATE },
		{ "decode", required_argument, NULL, DECODE },
		{ "encode", required_argument, NULL, ENCODE },
		{ "check", no_argument, NULL, CHECK },
		{ "csource", required_argument, NULL, CSOURCE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum mode mode = GENERATE;
	uint64_t seed = now_ns(), count = 1;
	const char *file = NULL;
	int c, calls = 32;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			seed = parse_num("seed", optarg, 0, UINT64_MAX);
			break;
		case 'n':
			count = parse_num("count", optarg, 0, UINT64_MAX);
			break;
		case 'c':
			calls = parse_num("calls", optarg, 1, MMF_MAX_STMTS);
			break;
		case MUTATE:
		case DECODE:
		case ENCODE:
		case CHECK:
		case CSOURCE:
			if (mode != GENERATE && mode != (enum mode)c) {
				warnx_("gen: --mutate, --decode, --encode, --check and --csource exclude each other");
				return 2;
			}
			mode = c;
			file = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			fputs(usage_text, stderr);
			return 2;
		}
	}
	if ((mode == CHECK) != (optind < argc)) {
		fputs(usage_text, stderr);
		return 2;
	}
	return run(mode, file, seed, count, calls, argv + optind, argc - optind);
}
