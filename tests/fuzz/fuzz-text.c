// SPDX-License-Identifier: GPL-2.0
/*
 * The text program parser (model/text.c): mmf_prog_parse() on the input
 * as one program, mmf_progs_parse() on it as an execution log. A parsed
 * program must be valid and survive print -> parse -> print unchanged.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "prog-check.h"

#define MAX_PROGS 3

static struct mmf_prog prog, progs[MAX_PROGS];

void fuzz_one(const uint8_t *buf, size_t len)
{
	char *text = mmf_xmalloc(len + 1), err[200];
	int n;

	memcpy(text, buf, len);
	text[len] = '\0';
	if (!mmf_prog_parse(text, &prog, err, sizeof(err))) {
		check_valid(&prog, "parse");
		check_text_round_trip(&prog, "parse");
	} else {
		FUZZ_CHECK(!strncmp(err, "line ", 5), "parse: error without a line: '%s'", err);
	}
	n = mmf_progs_parse(text, progs, MAX_PROGS, err, sizeof(err));
	FUZZ_CHECK(n >= -1 && n <= MAX_PROGS, "progs_parse: returned %d", n);
	for (int i = 0; i < n; i++) {
		check_valid(&progs[i], "progs_parse");
		FUZZ_CHECK(mmf_prog_nr_calls(&progs[i]) > 0, "progs_parse: program %d is empty",
			   i);
	}
	free(text);
}
