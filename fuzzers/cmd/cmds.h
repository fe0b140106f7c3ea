/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Subcommands of the mmfuzz binary. Each takes argv with argv[0] being the
 * subcommand name and returns the process exit status. They parse options
 * and call into the library layers; they hold no logic of their own.
 */
#ifndef MMF_CMDS_H
#define MMF_CMDS_H

#include <getopt.h>

#include "fuzz/env.h"

int cmd_exec(int argc, char **argv);
int cmd_fuzz(int argc, char **argv);
int cmd_cleanup(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_triage(int argc, char **argv);
int cmd_symbolize(int argc, char **argv);
int cmd_repro(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_campaign(int argc, char **argv);
int cmd_vm(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_stress(int argc, char **argv);

/* The native environment's options (swap devices, cgroup), for fuzz and stress. */
#define CMD_ENV_USAGE								\
	"  --swap-size MB      size of each swap device (default 256)\n"		\
	"  --swapdir DIR       where swap and loop files go (default /var/tmp)\n"	\
	"  --cgroup-limit MB   memory cgroup limit for programs, 0 for none (default 24)\n" \
	"  --no-zram           no zram swap device\n"				\
	"  --no-loop           no loop device swap\n"				\
	"  --swap PATH         cycle this existing swap device instead of making any\n" \
	"                      (repeatable; for guests, whose init made them)\n"
#define CMD_ENV_LONGOPTS							\
	{ "swap-size", required_argument, NULL, 'S' },				\
	{ "swapdir", required_argument, NULL, 'D' },				\
	{ "cgroup-limit", required_argument, NULL, 'L' },			\
	{ "no-zram", no_argument, NULL, 'Z' },					\
	{ "no-loop", no_argument, NULL, 'N' },					\
	{ "swap", required_argument, NULL, 'W' }
/* 1 if c is one of them (applied to eo), else 0. */
int cmd_env_option(const char *cmd, int c, const char *arg, struct mmf_env_opts *eo);

/*
 * The number of option opt (e.g. "--cpus"), which must lie in lo..hi:
 * else "cmd: --cpus 'abc' is not a number from 1 to 64" and exit 1.
 */
long cmd_num(const char *cmd, const char *opt, const char *s, long lo, long hi);

#endif
