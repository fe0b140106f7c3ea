/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Subcommands of the mmfuzz binary. Each takes argv with argv[0] being the
 * subcommand name and returns the process exit status. They parse options
 * and call into the library layers; they hold no logic of their own.
 */
#ifndef MMF_CMDS_H
#define MMF_CMDS_H

#include <stdint.h>

#include "fuzz/env.h"
#include "util/opts.h"

int cmd_exec(int argc, char **argv);
int cmd_fuzz(int argc, char **argv);
int cmd_cleanup(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_triage(int argc, char **argv);
int cmd_symbolize(int argc, char **argv);
int cmd_cover(int argc, char **argv);
int cmd_repro(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_campaign(int argc, char **argv);
int cmd_vm(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_stress(int argc, char **argv);
int cmd_afl_target(int argc, char **argv);
int cmd_corpus(int argc, char **argv);
int cmd_nightly(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_farm(int argc, char **argv);

/*
 * Options several commands share: one name, help and check each. The
 * defaults shown are the destinations' values before parsing.
 */
#define CMD_OPT_ARCH(p, ...)							\
	MMF_OPT("arch", "A", MMF_OPT_STR, p, "guest architecture: x86_64 or arm64", __VA_ARGS__)
/* def: what no --kernel means to the command. */
#define CMD_OPT_KERNEL(p, def_)							\
	MMF_OPT("kernel", "IMAGE", MMF_OPT_STR, p,				\
		"kernel to boot: an image, 'debian' (Debian's 6.12) or 'default'\n" \
		"(the newest 'make kernel', else Debian's)", .def = (def_))
#define CMD_OPT_INITRAMFS(p)							\
	MMF_OPT("initramfs", "FILE", MMF_OPT_STR, p, "the guests' initramfs, with\n"	\
		"mmfuzz in it (scripts/build-initramfs.sh --with-mmfuzz)",		\
		.def = "built, and mmfuzz beside it")
#define CMD_OPT_VMLINUX(p)							\
	MMF_OPT("vmlinux", "FILE", MMF_OPT_STR, p, "symbolize reports with this vmlinux")
#define CMD_OPT_MEM(p)								\
	MMF_OPT("mem", "MB", MMF_OPT_INT, p, "memory per guest", .lo = 256, .hi = 1 << 20)
#define CMD_OPT_CPUS(p)								\
	MMF_OPT("cpus", "N", MMF_OPT_INT, p, "CPUs per guest, at least 2: racing groups pin\n"	\
		"their parties to CPUs of their own; a guest that brings up fewer\n"	\
		"is a failed boot", .lo = 2, .hi = 64)
#define CMD_OPT_APPEND(p)							\
	MMF_OPT("append", "ARGS", MMF_OPT_STR, p, "more kernel command line")
#define CMD_OPT_GUEST_ARG(p, slots)						\
	MMF_OPT("guest-arg", "ARG", MMF_OPT_STRS, p,				\
		"pass ARG to the guest's mmfuzz (repeatable)", .hi = (slots))
#define CMD_OPT_OUT(p, what)							\
	MMF_OPT("out", "DIR", MMF_OPT_STR, p, what)
#define CMD_OPT_DURATION(p, what)						\
	MMF_OPT("duration", "T", MMF_OPT_MS, p, what, .lo = 1000)
#define CMD_OPT_TIMEOUT(p)							\
	MMF_OPT("timeout", "T", MMF_OPT_MS, p, "per-program timeout", .lo = 1)
/* A guest's runner passes TCG's factor (kvm/init: mmfuzz.slowdown). */
#define CMD_OPT_SLOWDOWN(p)							\
	MMF_OPT("slowdown", "N", MMF_OPT_INT, p,				\
		"programs run N times slower than native: the hang oracle's\n"	\
		"bounds grow by N", .lo = 1, .hi = 1000, .def = "1")
/* Every command that takes a seed prints the one it used. */
#define CMD_OPT_SEED(p)								\
	MMF_OPT("seed", "N", MMF_OPT_U64, p, "random seed", .hi = INT64_MAX,	\
		.def = "from the clock, printed")
#define CMD_OPT_NATIVE(p, what)							\
	MMF_OPT("native", NULL, MMF_OPT_FLAG, p, what)

/*
 * The native environment's options (swap devices, cgroup) into eo, for
 * fuzz, stress and repro: a table that lives as long as the process.
 */
const struct mmf_opt *cmd_env_opts(struct mmf_env_opts *eo);

/*
 * A campaign's engine, seeds (corpus: CMD_CORPUS_SLOTS + 1 strings), and
 * o's coverage focus and progress lines, for campaign and vm: a table that
 * lives as long as the process.
 */
#define CMD_CORPUS_SLOTS	15
/*
 * An MMF_OPT_FN parser of an engine's name (afl, mmfuzz) into a const char
 * *: refused with the options, before images are fetched or built.
 */
int cmd_parse_engine(const char *arg, void *dst, char *err, size_t n);
struct mmf_campaign_opts;
const struct mmf_opt *cmd_engine_opts(const char **engine, const char **corpus,
				      struct mmf_campaign_opts *o);

/* dir, made if need be, takes new files; else the command ends with a
 * one-line error (status 1) naming it as what.
 */
void cmd_writable_dir(const char *cmd, const char *what, const char *dir);

#endif
