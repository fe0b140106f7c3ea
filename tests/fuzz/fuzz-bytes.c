// SPDX-License-Identifier: GPL-2.0
/*
 * The byte decoder (model/bytes.c) and prog.h's promises about it: every
 * byte string decodes to a valid program, normalize leaves a valid program
 * unchanged, decode(encode(p)) == p for programs without comments (all
 * decoded ones), and the text form holds the program too.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "prog-check.h"

static struct mmf_prog prog, again;

void fuzz_one(const uint8_t *buf, size_t len)
{
	size_t need, got;
	uint8_t *enc;

	mmf_prog_decode(buf, len, &prog);
	check_valid(&prog, "decode");

	again = prog;
	mmf_prog_normalize(&again);
	check_same_prog(&prog, &again, "normalize of a valid program");

	need = mmf_prog_encode(&prog, NULL, 0);
	enc = mmf_xmalloc(need ? need : 1);
	got = mmf_prog_encode(&prog, enc, need);
	FUZZ_CHECK(got == need, "encode: %zu bytes, then %zu", need, got);
	mmf_prog_decode(enc, got, &again);
	check_same_prog(&prog, &again, "decode(encode(p))");
	free(enc);

	check_text_round_trip(&prog, "decode");
}
