// SPDX-License-Identifier: GPL-2.0
/*
 * A farm job's log (farm/lavalog.c) and the frame lines in its console
 * (store/wire.c): the input is a log, LAVA's or a plain console. A log
 * taken has its console lines in order, each ending where the next
 * starts; every record its frames rebuild is put as frames again and
 * comes back the same.
 */
#include <stdlib.h>
#include <string.h>

#include "farm/farm.h"
#include "harness.h"
#include "store/wire.h"
#include "util/util.h"

static void again(void *ctx, const char *line, size_t len)
{
	char err[256];

	FUZZ_CHECK(mmf_wire_frames_line(ctx, line, len, err, sizeof(err)) == 1,
		   "a frame put is refused: %s", err);
}

static void check_record(const struct mmf_wire_finding *f)
{
	struct mmf_crash c = { .title = f->title, .report = f->report, .log = f->log,
			       .progs = f->progs };
	struct mmf_wire_frames *fr = mmf_wire_frames_new();
	struct mmf_wire_finding g;
	char err[256];

	mmf_wire_put_frames(f->seq, &c, again, fr);
	FUZZ_CHECK(mmf_wire_frames_count(fr) == 1, "one record put, %d got",
		   mmf_wire_frames_count(fr));
	FUZZ_CHECK(mmf_wire_frames_get(fr, 0, &g, err, sizeof(err)) == 1, "not back: %s", err);
	FUZZ_CHECK(g.seq == f->seq && !strcmp(g.title, f->title) && !strcmp(g.report, f->report) &&
		   !strcmp(g.log, f->log) && !strcmp(g.progs, f->progs), "back otherwise");
	mmf_wire_finding_free(&g);
	mmf_wire_frames_free(fr);
}

void fuzz_one(const uint8_t *buf, size_t len)
{
	struct mmf_wire_frames *fr;
	struct mmf_lava_log l;
	char err[256];
	size_t from = 0;

	if (mmf_lava_log_parse((const char *)buf, len, &l, err, sizeof(err))) {
		FUZZ_CHECK(err[0], "refused without a word");
		return;
	}
	fr = mmf_wire_frames_new();
	for (size_t i = 0; i < l.nr; i++) {
		FUZZ_CHECK(l.ends[i] > from && l.ends[i] <= l.console.len &&
			   l.console.buf[l.ends[i] - 1] == '\n', "line %zu ends at %zu", i,
			   l.ends[i]);
		mmf_wire_frames_line(fr, l.console.buf + from, l.ends[i] - from - 1, err,
				     sizeof(err));
		from = l.ends[i];
	}
	FUZZ_CHECK(from == l.console.len, "console of %zu bytes, lines to %zu", l.console.len,
		   from);
	for (int i = 0; i < mmf_wire_frames_count(fr); i++) {
		struct mmf_wire_finding f;

		if (mmf_wire_frames_get(fr, i, &f, err, sizeof(err)) == 1) {
			check_record(&f);
			mmf_wire_finding_free(&f);
		} else {
			FUZZ_CHECK(err[0], "record %d not taken without a word", i);
		}
	}
	mmf_wire_frames_free(fr);
	mmf_lava_log_free(&l);
}
