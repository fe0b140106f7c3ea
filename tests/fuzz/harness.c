// SPDX-License-Identifier: GPL-2.0
/* main() of every self-fuzzing harness: see harness.h. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>	/* read(), in the AFL macros */

#include "harness.h"
#include "util/util.h"

#ifndef FUZZ_TARGET
#define FUZZ_TARGET "unknown"
#endif

void fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz-%s: broken: ", FUZZ_TARGET);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* A copy of exactly len bytes: ASan then catches a read past its end. */
static void run_one(const uint8_t *data, size_t len)
{
	uint8_t *copy = mmf_xmalloc(len ? len : 1);

	memcpy(copy, data, len);
	fuzz_one(copy, len);
	free(copy);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* path itself, or the files of the directory path, sorted. */
static void add_path(const char *path, char ***v, size_t *n)
{
	struct stat st;
	struct dirent *e;
	size_t first = *n;
	DIR *d;

	if (stat(path, &st))
		mmf_die("%s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		*v = mmf_xrealloc(*v, (*n + 1) * sizeof(**v));
		(*v)[(*n)++] = mmf_xstrdup(path);
		return;
	}
	d = opendir(path);
	if (!d)
		mmf_die("%s: %s", path, strerror(errno));
	while ((e = readdir(d))) {
		char *p;

		if (e->d_name[0] == '.')
			continue;
		p = mmf_xasprintf("%s/%s", path, e->d_name);
		if (stat(p, &st) || !S_ISREG(st.st_mode)) {
			free(p);
			continue;
		}
		*v = mmf_xrealloc(*v, (*n + 1) * sizeof(**v));
		(*v)[(*n)++] = p;
	}
	closedir(d);
	qsort(*v + first, *n - first, sizeof(**v), cmp_str);
}

/* Every input once, as KTAP: one case per file. */
static int replay(int argc, char **argv)
{
	const char *def = "tests/fuzz/regress/" FUZZ_TARGET;
	char **files = NULL;
	size_t n = 0;

	if (argc < 2)
		add_path(def, &files, &n);
	for (int i = 1; i < argc; i++)
		add_path(argv[i], &files, &n);
	if (!n)
		mmf_die("fuzz-%s: no inputs%s%s", FUZZ_TARGET, argc < 2 ? " in " : "",
		    argc < 2 ? def : "");
	printf("KTAP version 1\n1..%zu\n", n);
	fflush(stdout);
	for (size_t i = 0; i < n; i++) {
		size_t len;
		char *data = mmf_read_file(files[i], &len);

		if (!data)
			mmf_die("%s: %s", files[i], strerror(errno));
		run_one((const uint8_t *)data, len);
		printf("ok %zu %s\n", i + 1, files[i]);
		fflush(stdout);
		free(data);
		free(files[i]);
	}
	free(files);
	return 0;
}

#ifdef __AFL_FUZZ_TESTCASE_LEN
__AFL_FUZZ_INIT();
#endif

int main(int argc, char **argv)
{
	mmf_progname = "fuzz-" FUZZ_TARGET;
#ifdef __AFL_FUZZ_TESTCASE_LEN
	/* Under afl-fuzz (no arguments): persistent mode, input in shared memory. */
	if (argc < 2) {
		const uint8_t *buf;

		__AFL_INIT();
		buf = __AFL_FUZZ_TESTCASE_BUF;
		while (__AFL_LOOP(10000))
			run_one(buf, __AFL_FUZZ_TESTCASE_LEN);
		return 0;
	}
#endif
	return replay(argc, argv);
}
