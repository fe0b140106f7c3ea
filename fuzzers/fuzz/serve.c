// SPDX-License-Identifier: GPL-2.0
/* The guest's end of reproduction in a guest: run what the host sends. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "fuzz/native.h"
#include "repro/repro.h"
#include "util/util.h"

/* Runs of a benchmark on the swap devices the programs use. */
static int bench(const struct mmf_exec_opts *opts, struct mmf_journal *j, const char *req,
		 struct strbuf *out)
{
	const struct mmf_bench_info *b;
	struct mmf_bench_ctx ctx;
	char name[64];
	int runs, nr = 0;

	if (sscanf(req + strlen(MMF_SERVE_BENCH), "%63s %d", name, &runs) != 2)
		return -1;
	b = mmf_bench_find(name);
	if (!b)
		return -1;
	mmf_bench_ctx_default(&ctx);
	while (nr < MMF_NR_SWAPS && opts->swaps[nr])
		nr++;
	ctx.nr_swaps = nr;
	ctx.swaps = opts->swaps;
	ctx.j = j;
	for (int i = 0; i < runs; i++) {
		struct mmf_bench_result res = { 0 };
		int r = b->run(&ctx, &res);

		/* Not on this kernel: no runs. A failed run is left out. */
		if (r == -EOPNOTSUPP)
			break;
		if (r < 0)
			continue;
		mmf_sb_puts(out, MMF_SERVE_BENCH);
		mmf_bench_json(name, i + 1, &res, out);
		mmf_sb_puts(out, "\n");
	}
	return 0;
}

/* Answer one request (the text before its end line). */
static void answer(int fd, const struct mmf_exec_opts *opts, struct mmf_journal *j,
		   const char *req)
{
	static struct mmf_prog progs[MMF_REPRO_MAX_PROGS];
	struct strbuf out, titles;
	char err[256], *line, *save;
	int n, rc;

	mmf_sb_init(&out);
	mmf_sb_init(&titles);
	if (!strncmp(req, MMF_SERVE_BENCH, strlen(MMF_SERVE_BENCH))) {
		rc = bench(opts, j, req, &out);
		goto done;
	}
	n = mmf_progs_parse(req, progs, ARRAY_SIZE(progs), err, sizeof(err));
	if (n < 0)
		mmf_warnx_("serve: bad request: %s", err);
	rc = n < 0 ? -1 : mmf_native_titles(opts, progs, n, &titles);
	line = titles.len ? strtok_r(titles.buf, "\n", &save) : NULL;
	for (; line; line = strtok_r(NULL, "\n", &save))
		mmf_sb_printf(&out, MMF_SERVE_TITLE "%s\n", line);
done:
	mmf_sb_printf(&out, MMF_SERVE_DONE "%d\n", rc);
	mmf_write_all(fd, out.buf, out.len);
	mmf_sb_free(&out);
	mmf_sb_free(&titles);
}

int mmf_serve(int fd, const struct mmf_exec_opts *opts, struct mmf_journal *j)
{
	static const char end[] = "\n" MMF_SERVE_END "\n";
	struct strbuf in;
	char buf[4096];
	ssize_t k;

	mmf_sb_init(&in);
	if (dprintf(fd, MMF_SERVE_READY "\n") < 0)
		return -1;
	for (;;) {
		char *e;

		k = read(fd, buf, sizeof(buf));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		mmf_sb_add(&in, buf, k);
		/* A request may end in the middle of a read, several in one. */
		while (in.len && (e = strstr(in.buf, end))) {
			size_t used = e - in.buf + strlen(end);

			*e = '\0';
			answer(fd, opts, j, in.buf);
			memmove(in.buf, in.buf + used, in.len - used + 1);
			in.len -= used;
		}
	}
	mmf_sb_free(&in);
	return k < 0 ? -1 : 0;
}
