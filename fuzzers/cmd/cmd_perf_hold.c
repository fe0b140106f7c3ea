// SPDX-License-Identifier: GPL-2.0
/*
 * mmfuzz perf-hold: a guest's init holds one perf event for the guest's
 * life (exec/calls.h, mmf_exec_map_init()), so that no later perf event
 * patches kernel text.
 */
#include <stdio.h>
#include <unistd.h>

#include "cmd/cmds.h"
#include "exec/calls.h"
#include "util/util.h"

static const char epilog[] =
	"The first perf event turns on a jump label in __schedule: kernel text\n"
	"patched live, which under TCG has crashed guests with \"Oops: int3\" in\n"
	"__schedule while another CPU ran there. kvm/init runs this with the\n"
	"other CPUs offline, before its snapshot point; it prints \"held\" once\n"
	"the event is open and then waits until killed.\n"
	"exit status: 1 when perf_event_open fails, 2 usage\n";

int cmd_perf_hold(int argc, char **argv)
{
	const struct mmf_opt opts[] = { MMF_OPT_END };
	const struct mmf_opt *const tables[] = { opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "perf-hold", .synopsis = "", .tables = tables, .epilog = epilog,
		.max_args = 0,
	};

	mmf_opts_parse(&spec, argc, argv);
	if (mmf_exec_map_init())
		mmf_die("perf-hold: perf_event_open: %m");
	printf("held\n");
	fflush(stdout);
	for (;;)
		pause();
}
