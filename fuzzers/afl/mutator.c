// SPDX-License-Identifier: GPL-2.0
/*
 * AFL++'s custom mutator over the byte form of programs (model/bytes.c), built
 * as mmfuzz-mutator.so for AFL_CUSTOM_MUTATOR_LIBRARY. An input is decoded,
 * mutated as a program (model/mutate.c: insert, remove, replace a call,
 * change an argument, splice with the queue entry AFL offers, ...) and
 * encoded again, so that every execution runs a meaningful program.
 *
 * Every buffer handed out is the canonical encoding of a program: the
 * encoding of what it decodes to. post_process makes any bytes so (AFL's own
 * havoc, a sync from another instance), and trimming removes calls, not
 * bytes, so that the queue stays canonical and prints as text programs with
 * 'mmfuzz gen --decode'.
 */
#include <stdlib.h>
#include <string.h>

#include "afl/mutator.h"
#include "model/prog.h"
#include "util/rand.h"
#include "util/util.h"

/* Bytes handed to AFL, valid until the next call that fills them. */
struct out {
	uint8_t *buf;
	size_t cap;
};

struct mutator {
	struct mmf_rand rnd;
	struct mmf_prog prog, other, whole;
	struct mmf_mutation last;
	char name[64];
	struct out fuzzed, processed, trimmed;
	/* Trimming: the program kept so far, the candidate, the next call to try. */
	struct mmf_prog trim, cand;
	int trim_at, trim_steps;
};

/* Encode p into o; the buffer exists even for the empty program. */
static size_t encode(struct out *o, const struct mmf_prog *p, uint8_t **out_buf)
{
	size_t n = mmf_prog_encode(p, NULL, 0);

	if (!o->buf || n > o->cap) {
		o->cap = MAX(n, 1);
		o->buf = mmf_xrealloc(o->buf, o->cap);
	}
	*out_buf = o->buf;
	return mmf_prog_encode(p, o->buf, n);
}

/*
 * Drop trailing statements until the encoding fits in max bytes. A cut
 * inside a block gets the block's "}" back from normalize, so the cut moves
 * up until the whole fits.
 */
static void fit(struct mmf_prog *p, size_t max, struct mmf_prog *whole)
{
	size_t len = mmf_prog_encode(p, NULL, 0);
	int k;

	if (len <= max)
		return;
	*whole = *p;
	/* Records are all as long: start from as many as fit. */
	for (k = MIN(p->nr - 1, (int)(max / (len / p->nr))); k >= 0; k--) {
		memcpy(p->stmts, whole->stmts, k * sizeof(p->stmts[0]));
		p->nr = k;
		mmf_prog_normalize(p);
		if (mmf_prog_encode(p, NULL, 0) <= max)
			return;
	}
}

void *afl_custom_init(void *afl, unsigned int seed)
{
	struct mutator *m = mmf_xcalloc(1, sizeof(*m));

	mmf_rand_seed(&m->rnd, seed);
	m->last.op = "none";
	m->last.stmt.id = MMF_COMMENT;
	return m;
}

/*
 * Mutations are stacked 1, 2 or 4 deep, each of one or a few edits
 * (mmf_prog_mutate): mostly small steps from the input, as AFL's havoc,
 * with fewer edits since one call is worth many bytes. One input in
 * MMF_GENERATE_ONE_IN is a fresh program instead, as in the mmfuzz
 * engine's loop: what the queue's lineages have not reached, and lighter
 * than the corpus's swap-heavy descendants.
 */
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
		       uint8_t *add_buf, size_t add_buf_size, size_t max_size)
{
	struct mutator *m = data;
	const struct mmf_prog *other = NULL;
	int stack = 1 << mmf_rand_below(&m->rnd, 3);

	if (mmf_rand_oneof(&m->rnd, MMF_GENERATE_ONE_IN)) {
		mmf_prog_generate(&m->rnd, 4 + mmf_rand_below(&m->rnd, MMF_GENERATE_CALLS),
				  &m->prog);
		m->last.op = "generate";
		m->last.stmt.id = MMF_COMMENT;
		fit(&m->prog, max_size, &m->whole);
		return encode(&m->fuzzed, &m->prog, out_buf);
	}
	mmf_prog_decode(buf, buf_size, &m->prog);
	if (add_buf && add_buf_size) {
		mmf_prog_decode(add_buf, add_buf_size, &m->other);
		other = &m->other;
	}
	while (stack--)
		mmf_prog_mutate_named(&m->rnd, &m->prog, other, &m->last);
	fit(&m->prog, max_size, &m->whole);
	return encode(&m->fuzzed, &m->prog, out_buf);
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-';
}

/* The last edit for queue file names: "insert-madvise-MADV_FREE". */
const char *afl_custom_describe(void *data, size_t max_description_len)
{
	struct mutator *m = data;
	size_t n = 0, room = MIN(sizeof(m->name), max_description_len);
	struct strbuf sb;

	mmf_sb_init(&sb);
	mmf_sb_puts(&sb, m->last.op);
	if (m->last.stmt.id != MMF_COMMENT) {
		mmf_sb_puts(&sb, "-");
		mmf_stmt_title(&m->last.stmt, &sb);
	}
	for (const char *s = sb.buf; *s && n + 1 < room; s++) {
		if (*s == '(')
			m->name[n++] = '-';
		else if (name_char(*s))
			m->name[n++] = *s;
	}
	m->name[n] = 0;
	mmf_sb_free(&sb);
	return m->name;
}

size_t afl_custom_post_process(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf)
{
	struct mutator *m = data;

	mmf_prog_decode(buf, buf_size, &m->prog);
	return encode(&m->processed, &m->prog, out_buf);
}

/* One step per statement: try the program without it. */
int32_t afl_custom_init_trim(void *data, uint8_t *buf, size_t buf_size)
{
	struct mutator *m = data;

	mmf_prog_decode(buf, buf_size, &m->trim);
	m->trim_at = 0;
	m->trim_steps = m->trim.nr;
	return m->trim_steps;
}

size_t afl_custom_trim(void *data, uint8_t **out_buf)
{
	struct mutator *m = data;

	m->cand = m->trim;
	mmf_prog_remove(&m->cand, m->trim_at);
	/* Without a join, too many blocks may be in flight: normalize adds one. */
	mmf_prog_normalize(&m->cand);
	return encode(&m->trimmed, &m->cand, out_buf);
}

/*
 * Keep the candidate when it had the same coverage and is shorter (a join
 * normalize put back is not); AFL's step count is statements tried or
 * removed, so it reaches trim_steps when every statement was tried.
 */
int32_t afl_custom_post_trim(void *data, uint8_t success)
{
	struct mutator *m = data;

	if (success && m->cand.nr < m->trim.nr)
		m->trim = m->cand;
	else
		m->trim_at++;
	if (m->trim_at >= m->trim.nr)
		return m->trim_steps;
	return m->trim_at + m->trim_steps - m->trim.nr;
}

void afl_custom_deinit(void *data)
{
	struct mutator *m = data;

	free(m->fuzzed.buf);
	free(m->processed.buf);
	free(m->trimmed.buf);
	free(m);
}
