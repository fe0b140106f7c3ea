/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Subcommands of the mmfuzz binary. Each takes argv with argv[0] being the
 * subcommand name and returns the process exit status. They parse options
 * and call into the library layers; they hold no logic of their own.
 */
#ifndef MMF_CMDS_H
#define MMF_CMDS_H

int cmd_exec(int argc, char **argv);
int cmd_fuzz(int argc, char **argv);
int cmd_cleanup(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_triage(int argc, char **argv);
int cmd_symbolize(int argc, char **argv);
int cmd_repro(int argc, char **argv);
int cmd_campaign(int argc, char **argv);
int cmd_vm(int argc, char **argv);
int cmd_stress(int argc, char **argv);

#endif
