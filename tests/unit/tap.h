/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KTAP output for unit tests, as kselftests print it: a version line and a
 * plan, then one "ok N name" or "not ok N name" per test function, with
 * diagnostics as "# " lines. A failed CHECK ends its test function (the
 * others still run); one in main() before the tests, in a forked child
 * or thread ends the process ("Bail out!" in main). The exit status is 1 if any test
 * failed.
 *
 *	static const struct tap_test tests[] = { TAP_TEST(test_a), TAP_TEST(test_b) };
 *	int main(void) { ...setup...; return tap_run(tests); }
 */
#ifndef MMF_TEST_TAP_H
#define MMF_TEST_TAP_H

#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct tap_test {
	const char *name;
	void (*fn)(void);
};

#define TAP_TEST(fn) { #fn, fn }

static int tap_checks;
static pid_t tap_tid;		/* the thread running a test, 0 outside one */
static jmp_buf tap_jmp;

#define CHECK(cond, ...)							\
	do {									\
		tap_checks++;							\
		if (!(cond)) {							\
			printf("# %s:%d: CHECK(%s) failed: ", __FILE__,	\
			       __LINE__, #cond);				\
			printf(__VA_ARGS__);					\
			putchar('\n');						\
			tap_failed();						\
		}								\
	} while (0)

static void tap_failed(void) __attribute__((noreturn));
static void tap_failed(void)
{
	fflush(stdout);
	if (tap_tid == gettid())
		longjmp(tap_jmp, 1);
	if (!tap_tid)
		printf("Bail out! a check before the tests failed\n");
	exit(1);
}

static int tap_main(const struct tap_test *tests, size_t nr)
{
	volatile int failed = 0;

	/* Children and threads print too: no line may wait in a buffer. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("KTAP version 1\n1..%zu\n", nr);
	for (volatile size_t i = 0; i < nr; i++) {
		int before = tap_checks;

		fflush(stdout);
		tap_tid = gettid();
		if (!setjmp(tap_jmp)) {
			tests[i].fn();
			printf("# %s: %d checks\n", tests[i].name, tap_checks - before);
			printf("ok %zu %s\n", i + 1, tests[i].name);
		} else {
			failed++;
			printf("not ok %zu %s\n", i + 1, tests[i].name);
		}
		tap_tid = 0;
	}
	printf("# %zu passed, %d failed\n", nr - failed, failed);
	return failed ? 1 : 0;
}

#define tap_run(tests) tap_main(tests, sizeof(tests) / sizeof((tests)[0]))

/* tap_main() in dir, a mkdtemp() template made first and removed after. */
static inline int tap_main_in(const struct tap_test *tests, size_t nr, char *dir)
{
	char rm[PATH_MAX + 16];
	int r;

	if (!mkdtemp(dir))
		return 1;
	r = tap_main(tests, nr);
	snprintf(rm, sizeof(rm), "rm -rf '%s'", dir);
	if (system(rm))
		r = 1;
	return r;
}

#define tap_run_in(tests, dir) tap_main_in(tests, sizeof(tests) / sizeof((tests)[0]), dir)

#endif
