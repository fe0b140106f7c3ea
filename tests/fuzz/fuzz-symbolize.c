// SPDX-License-Identifier: GPL-2.0
/*
 * The symbolizer's text side (symbolize/frame.c, symbolize.c): every line
 * of the input through mmf_sym_parse_frame(), whose positions must lie in the
 * line, then the whole input through mmf_symbolizer_run() of a symbolizer
 * with no vmlinux and no modules directory, which runs no binutils and
 * must give the text back byte for byte, noting why.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "symbolize/internal.h"
#include "symbolize/symbolize.h"

static void check_frame(const char *line, size_t n)
{
	struct sym_frame f;

	if (!mmf_sym_parse_frame(line, n, &f))
		return;
	FUZZ_CHECK(f.name_len && f.sym + f.name_len < f.sym_end && f.sym_end <= n,
		   "frame '%.*s': symbol [%zu, +%zu), end %zu", (int)n, line, f.sym,
		   f.name_len, f.sym_end);
	FUZZ_CHECK(line[f.sym + f.name_len] == '+', "frame '%.*s': no '+' after the name",
		   (int)n, line);
	FUZZ_CHECK(!f.mod_len || (f.mod >= f.sym_end && f.mod + f.mod_len <= n),
		   "frame '%.*s': module [%zu, +%zu)", (int)n, line, f.mod, f.mod_len);
}

void fuzz_one(const uint8_t *buf, size_t len)
{
	const char *text = (const char *)buf;
	struct mmf_sym_opts o = { 0 };
	struct mmf_symbolizer *s;
	char *out, *err, *notes;
	size_t out_len;
	int done;

	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;

		check_frame(text + pos, end - pos);
		pos = end + 1;
	}

	s = mmf_symbolizer_new(&o, &err);
	FUZZ_CHECK(s, "mmf_symbolizer_new: %s", err);
	done = mmf_symbolizer_run(s, text, len, &out, &out_len);
	FUZZ_CHECK(!done, "%d frames symbolized without any object", done);
	FUZZ_CHECK(out_len == len && !memcmp(out, text, len) && !out[len],
		   "the text changed (%zu bytes, then %zu)", len, out_len);
	free(out);
	notes = mmf_symbolizer_notes(s);
	free(notes);
	mmf_symbolizer_free(s);
}
