/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Self-fuzzing harnesses: each tests/fuzz/fuzz-NAME.c feeds one input to
 * one of mmfuzz's own parsers in fuzz_one(); harness.c holds main().
 *
 * Built with afl-clang-fast (make afl, make fuzz-self) and run without
 * arguments, main() runs fuzz_one() in AFL++'s persistent mode on
 * shared-memory test cases. Otherwise (plain gcc and ASan/UBSan, or the
 * AFL build given files: how to replay a crash) it runs fuzz_one() over
 * each file named on the command line (directories: every file in them),
 * by default over tests/fuzz/regress/NAME/, printing KTAP: what make unit
 * runs.
 *
 * fuzz_one() gets a copy of the input of exactly len bytes (no NUL after
 * it), so that ASan sees a read past its end. A broken promise of the code
 * under test (a round trip that does not hold, an invariant of a result)
 * is a crash: fuzz_fail() prints why and aborts, for AFL to keep the input.
 */
#ifndef MMF_FUZZ_HARNESS_H
#define MMF_FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>

void fuzz_one(const uint8_t *buf, size_t len);

void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#define FUZZ_CHECK(cond, ...)						\
	do {								\
		if (!(cond))						\
			fuzz_fail(__VA_ARGS__);				\
	} while (0)

#endif
