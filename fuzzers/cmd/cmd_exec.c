// SPDX-License-Identifier: GPL-2.0
/* mmfuzz exec: run text programs once, print per-call results and reports. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/guestrepro.h"
#include "cmd/cmds.h"
#include "exec/exec.h"
#include "fuzz/env.h"
#include "oracle/accounting.h"
#include "oracle/kmsg.h"
#include "util/util.h"

static const char epilog[] =
	"With --kernel, each program runs once in a guest, which prints its reports only;\n"
	"a fresh guest follows a kernel report.\n"
	"exit status: 0 no report, 3 some report, 1 error, 2 usage\n";

/* --acct-skew: checked and set here, and sent to a guest's mmfuzz. */
static int parse_acct_skew(const char *arg, void *dst, char *err, size_t n)
{
	mmf_acct_skew_set("exec", arg);
	mmf_guest_argv_pair(dst, "--acct-skew", arg);
	return 0;
}

/* How the parties of a racing round met. */
static void print_round(const struct mmf_race_round *rr)
{
	printf("    race at %d, round %d: delay %lld ns, released within %lld ns, CPUs",
	       rr->race, rr->round + 1, (long long)rr->delay_ns, (long long)rr->spread_ns);
	for (int k = 0; k < rr->parties; k++)
		printf("%c%d", k ? ',' : ' ', rr->cpu[k]);
	printf("\n");
}

static void print_result(const struct mmf_prog *p, const struct mmf_call_result *c)
{
	struct strbuf sb;
	char res[48];

	mmf_sb_init(&sb);
	mmf_stmt_print(&p->stmts[c->si], &sb);
	mmf_exec_format_res(c->res, res, sizeof(res));
	if (c->party >= 0)
		printf("  %3d [in %d] %s = %s", c->si, c->party, sb.buf, res);
	else
		printf("  %3d %s = %s", c->si, sb.buf, res);
	if (c->swapped >= 0)
		printf(" swapped=%d", c->swapped);
	putchar('\n');
	mmf_sb_free(&sb);
}

/* One program with coverage: its reports' titles, its PCs appended to f. */
static int cover_one(struct mmf_guest_repro *g, const struct mmf_prog *p, FILE *f,
		     struct strbuf *titles)
{
	struct mmf_guest_cover c;
	int edges = 0, r;

	mmf_guest_cover_init(&c);
	r = mmf_guest_repro_cover(g, p, &c);
	for (int i = 0; !r && i < c.nr_reports; i++)
		mmf_sb_printf(titles, "%s\n", c.rep[i].title);
	for (int e = 0; e < MMF_GUEST_COVER_EDGES; e++)
		edges += c.edges[e] != 0;
	for (size_t i = 0; i < c.nr_pcs; i++)
		fprintf(f, "0x%llx\n", (unsigned long long)c.pcs[i]);
	if (!r)
		printf("coverage: %s, %zu PCs, %d edges (%s)\n", c.outcome, c.nr_pcs, edges,
		       c.feedback);
	if (!r && !strcmp(c.outcome, "failed"))
		r = -1;
	mmf_guest_cover_free(&c);
	return r;
}

/* Each program once in a guest; its reports' titles, exit 3 if any. */
static int exec_in_guest(char **paths, const struct mmf_prog *progs, int n, const char *arch,
			 const char *kernel, int timeout_ms, const char *const *guest_args,
			 const char *cover)
{
	FILE *f = NULL;

	char work[] = "/var/tmp/mmfuzz-exec.XXXXXX", err[512];
	struct mmf_guest_repro_opts go = {
		.guest = { .mem_mb = 1024, .cpus = 2, .guest_args = guest_args },
		.timeout_ms = timeout_ms, .info = stdout,
	};
	struct mmf_guest_repro *g;
	struct mmf_vm_images im;
	int reports = 0, rc = 0;

	if (mmf_vm_guest_setup(&go.guest, arch, kernel, NULL, &im, err, sizeof(err)))
		mmf_die("exec: %s", err);
	if (!mkdtemp(work))
		mmf_die("exec: %s: %s", work, strerror(errno));
	if (cover)
		f = fopen(cover, "a");
	if (cover && !f)
		mmf_die("exec: cannot write %s: %s", cover, strerror(errno));
	go.workdir = work;
	printf("exec: %s guest under %s, kernel %s, consoles in %s\n", go.guest.arch->name,
	       mmf_vm_accel_name(go.guest.accel), im.kernel, work);
	g = mmf_guest_repro_new(&go);
	for (int i = 0; i < n && !rc; i++) {
		struct strbuf titles;

		mmf_sb_init(&titles);
		if (f ? cover_one(g, &progs[i], f, &titles) :
			mmf_guest_repro_titles(g, &progs[i], 1, &titles)) {
			mmf_warnx_("%s: could not be run in the guest", paths[i]);
			rc = 1;
		}
		printf("%s: %s\n", paths[i], titles.len ? "reports:" : rc ? "not run" : "no report");
		for (char *p = titles.buf; p && *p; p = strchr(p, '\n') + 1, reports++)
			printf("REPORT: %.*s\n", (int)strcspn(p, "\n"), p);
		mmf_sb_free(&titles);
	}
	mmf_guest_repro_free(g);
	mmf_vm_images_free(&im);
	if (f && fclose(f))
		mmf_die("exec: cannot write %s: %s", cover, strerror(errno));
	printf("%d program(s), %d report(s)\n", n, reports);
	return rc ? rc : reports ? 3 : 0;
}

/* What the options set. */
static struct exec_cmd {
	struct mmf_exec_opts eo;
	bool native, env_on, quiet;
	const char *kernel, *arch, *exec_log, *cover;
	struct mmf_guest_argv gargs;	/* test hooks the guest's server takes */
	/* eo.timeout_ms is an int, the table's durations int64_t. */
	int64_t timeout_ms;
	int corrupt_pin;
} ec = {
	.eo = { .exec_log_fd = -1, .corrupt_after = -1, .hang_after = -1 },
	.env_on = true, .arch = "x86_64", .timeout_ms = 30000, .corrupt_pin = -1,
};

static const struct mmf_opt exec_opts[] = {
	CMD_OPT_NATIVE(&ec.native, "run on the running kernel (required outside a guest)"),
	CMD_OPT_KERNEL(&ec.kernel, ""),
	CMD_OPT_ARCH(&ec.arch),
	CMD_OPT_TIMEOUT(&ec.timeout_ms),
	CMD_OPT_SLOWDOWN(&ec.eo.slowdown),
	MMF_OPT("no-env", NULL, MMF_OPT_UNFLAG, &ec.env_on,
		"no swap devices, memory cgroups or knob writes of our own"),
	MMF_OPT("quiet", NULL, MMF_OPT_FLAG, &ec.quiet, "print reports and the summary only"),
	MMF_OPT("cover", "FILE", MMF_OPT_STR, &ec.cover,
		"with --kernel: append the kernel PCs the programs reach\n"
		"(KCOV) to FILE, one per line"),
	MMF_OPT("exec-log", "FILE", MMF_OPT_STR, &ec.exec_log,
		"append each program to FILE before it runs"),
	MMF_OPT("corrupt-after", "N", MMF_OPT_INT, &ec.eo.corrupt_after,
		"change a page behind the model after statement N",
		.hi = MMF_MAX_STMTS, .def = "", .hook = 1),
	MMF_OPT("hang-after", "N", MMF_OPT_INT, &ec.eo.hang_after, "hang after statement N",
		.hi = MMF_MAX_STMTS, .def = "", .hook = 1),
	MMF_OPT("hang-spins", NULL, MMF_OPT_FLAG, &ec.eo.hang_spins,
		"--hang-after spins on the CPU (no faults, no I/O)", .hook = 1),
	MMF_OPT("corrupt-tag", "T", MMF_OPT_INT, &ec.eo.corrupt_tag,
		"change a page behind the model after each write of tag T\n"
		"(also in a guest)", .lo = 1, .hi = 255, .def = "", .hook = 1),
	MMF_OPT("corrupt-pin", "N", MMF_OPT_INT, &ec.corrupt_pin,
		"change the page pin call N wrote or vmsplice'd",
		.hi = MMF_MAX_STMTS, .def = "", .hook = 1),
	MMF_OPT("acct-skew", "C:KB[+C:KB]", MMF_OPT_FN, &ec.gargs,
		"add KB to the accounting oracle's readings\n"
		"of counter C after the program (also in a guest)",
		.fn = parse_acct_skew, .hook = 1),
	MMF_OPT_END
};

/* The programs of the files, parsed; a bad one ends the command. */
static struct mmf_prog *load_progs(char **paths, int n)
{
	struct mmf_prog *progs = mmf_xcalloc(n, sizeof(*progs));
	char err[256];

	for (int i = 0; i < n; i++) {
		char *text = mmf_read_file(paths[i], NULL);

		if (!text)
			mmf_die("%s: %s", paths[i], strerror(errno));
		if (mmf_prog_parse(text, &progs[i], err, sizeof(err)))
			mmf_die("%s: %s", paths[i], err);
		free(text);
	}
	return progs;
}

/* Each program once on the running kernel; exit 3 if any reported. */
static int exec_native(char **paths, const struct mmf_prog *progs, int n)
{
	int reports = 0, status = 0;
	struct mmf_env env;
	char err[256];

	if (ec.cover)
		mmf_die("exec: --cover runs the programs in a guest: give --kernel");
	if (ec.env_on && geteuid())
		mmf_die("exec: swap devices and a cgroup of our own need root (or use --no-env)");
	if (ec.env_on && mmf_env_setup(&mmf_env_defaults, &env, err, sizeof(err)))
		mmf_die("exec: %s", err);
	if (ec.env_on)
		mmf_env_exec_opts(&env, &ec.eo);
	ec.eo.kmsg = mmf_kmsg_open();
	for (int i = 0; i < n; i++) {
		struct mmf_exec_result r;

		if (mmf_exec_prog(&progs[i], &ec.eo, &r)) {
			mmf_warnx_("%s: cannot run: %s", paths[i], strerror(errno));
			status = 1;
			break;
		}
		printf("%s: %s, %d calls, %ld pages seen swapped, %.3f s\n", paths[i],
		       mmf_run_status_name(r.status), r.nr_results, r.swapped, r.ns / 1e9);
		for (int k = 0; !ec.quiet && k < r.nr_results; k++)
			print_result(&progs[i], &r.results[k]);
		for (int k = 0; !ec.quiet && k < r.nr_rounds; k++)
			print_round(&r.rounds[k]);
		for (int k = 0; k < r.nr_reports; k++)
			printf("REPORT: %s\n%s\n", r.reports[k].title, r.reports[k].body);
		reports += r.nr_reports;
		mmf_exec_result_free(&r);
		if (ec.env_on)
			mmf_env_restore_swaps(&env);
	}
	mmf_kmsg_close(ec.eo.kmsg);
	if (ec.env_on && mmf_env_teardown(&env))
		status = 1;
	printf("%d program(s), %d report(s)\n", n, reports);
	return status ? status : reports ? 3 : 0;
}

int cmd_exec(int argc, char **argv)
{
	const struct mmf_opt *const tables[] = { exec_opts, NULL };
	const struct mmf_cmd_spec spec = {
		.name = "exec",
		.synopsis = "(--native | --kernel IMAGE [--arch A]) [options] FILE...",
		.tables = tables, .epilog = epilog, .min_args = 1, .max_args = -1,
	};
	int first = mmf_opts_parse(&spec, argc, argv), n = argc - first, r;
	struct mmf_prog *progs;
	char err[128];

	if (!ec.native && !ec.kernel) {
		mmf_warnx_("exec: refusing to run on the running kernel without --native");
		return 2;
	}
	/* A guest's server takes --corrupt-tag and --acct-skew; the others would do nothing. */
	if (ec.kernel && (ec.eo.corrupt_after >= 0 || ec.eo.hang_after >= 0 || ec.eo.hang_spins ||
			  ec.corrupt_pin >= 0)) {
		mmf_warnx_("exec: --corrupt-after, --hang-after, --hang-spins and --corrupt-pin"
			   " need --native");
		return 2;
	}
	if (ec.kernel && ec.eo.corrupt_tag)
		mmf_guest_argv_opt(&ec.gargs, "--corrupt-tag", "%d", ec.eo.corrupt_tag);
	ec.eo.timeout_ms = ec.timeout_ms;
	/* eo holds the statement + 1, 0 for never. */
	ec.eo.corrupt_pin = ec.corrupt_pin + 1;
	if (ec.exec_log) {
		ec.eo.exec_log_fd = open(ec.exec_log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
					 0644);
		if (ec.eo.exec_log_fd < 0)
			mmf_die("exec: cannot open execution log %s: %s", ec.exec_log,
				strerror(errno));
	}
	progs = load_progs(argv + first, n);
	/* The guest's runner takes it in place of its accelerator's. */
	if (ec.kernel && ec.eo.slowdown)
		mmf_guest_argv_opt(&ec.gargs, "--slowdown", "%d", ec.eo.slowdown);
	if (mmf_guest_argv_check(&ec.gargs, err, sizeof(err)))
		mmf_die("exec: %s", err);
	if (ec.kernel)
		r = exec_in_guest(argv + first, progs, n, ec.arch, ec.kernel, ec.eo.timeout_ms,
				  ec.gargs.v, ec.cover);
	else
		r = exec_native(argv + first, progs, n);
	free(progs);
	return r;
}
