// SPDX-License-Identifier: GPL-2.0
/*
 * tap.h itself: a failed check ends its test only, is reported as "not ok"
 * with its diagnostic, the other tests still run, and the exit status
 * says so; a check failing in a forked child ends the child alone.
 */
#include <string.h>
#include <sys/wait.h>

#include "tap.h"
#include "util/util.h"

static int after_failure;

static void t_pass(void)
{
	CHECK(1 + 1 == 2, "arithmetic");
}

static void t_fail(void)
{
	CHECK(1 + 1 == 3, "wanted %d", 3);
	after_failure = 1;
}

static void t_child(void)
{
	pid_t pid = fork();
	int st;

	CHECK(pid >= 0, "fork");
	if (!pid)
		CHECK(0, "in the child");
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 1,
	      "child status %#x", st);
}

static const struct tap_test inner[] = {
	TAP_TEST(t_pass),
	TAP_TEST(t_fail),
	TAP_TEST(t_child),
};

static void test_output(void)
{
	static const char *const want[] = {
		"KTAP version 1\n1..3\n",
		"\nok 1 t_pass\n",
		"CHECK(1 + 1 == 3) failed: wanted 3\nnot ok 2 t_fail\n",
		"CHECK(0) failed: in the child\n",
		"\nok 3 t_child\n",
		"\n# 2 passed, 1 failed\n",
	};
	char buf[4096];
	size_t len = 0;
	ssize_t r;
	int fds[2], st;
	pid_t pid;

	CHECK(!pipe(fds), "pipe");
	fflush(stdout);
	pid = fork();
	CHECK(pid >= 0, "fork");
	if (!pid) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		tap_tid = 0;
		exit(tap_run(inner) + 10 * after_failure);
	}
	close(fds[1]);
	while ((r = read(fds[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += r;
	buf[len] = 0;
	close(fds[0]);
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st), "status %#x", st);
	CHECK(WEXITSTATUS(st) == 1, "exit %d: failed tests give 1, and a failed check "
	      "ends its test", WEXITSTATUS(st));
	for (size_t i = 0; i < ARRAY_SIZE(want); i++)
		CHECK(strstr(buf, want[i]), "'%s' not in:\n%s", want[i], buf);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_output),
};

int main(void)
{
	return tap_run(tests);
}
