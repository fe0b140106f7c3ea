// SPDX-License-Identifier: GPL-2.0
/*
 * Byte codec and normalization: every byte string decodes to a valid
 * program, decode(encode(p)) == p, and normalize is idempotent and leaves
 * valid programs alone.
 */
#include <string.h>

#include "model/prog.h"
#include "tap.h"
#include "util/rand.h"
#include "util/util.h"

#define MAX_BYTES	4096

static bool prog_eq(const struct mmf_prog *a, const struct mmf_prog *b)
{
	if (a->nr != b->nr)
		return false;
	for (int i = 0; i < a->nr; i++) {
		const struct mmf_stmt *s = &a->stmts[i], *t = &b->stmts[i];

		if (s->id != t->id || s->comment != t->comment ||
		    memcmp(s->args, t->args, sizeof(s->args)))
			return false;
	}
	return true;
}

static void check_valid(const struct mmf_prog *p, const char *what, long n)
{
	char err[256];

	CHECK(!mmf_prog_validate(p, err, sizeof(err)), "%s %ld: %s", what, n, err);
}

/*
 * decode(x) is valid; every few strings, check that encoding it gives bytes
 * that decode to it again (all of them would take too long under ASan).
 */
static void check_decode(const uint8_t *data, size_t len, const char *what, long n)
{
	static uint8_t buf[MMF_MAX_STMTS * 64];
	struct mmf_prog p, q;
	size_t need;

	mmf_prog_decode(data, len, &p);
	check_valid(&p, what, n);
	if (n % 8)
		return;
	need = mmf_prog_encode(&p, buf, sizeof(buf));
	CHECK(need <= sizeof(buf), "%s %ld: %zu bytes", what, n, need);
	mmf_prog_decode(buf, need, &q);
	CHECK(prog_eq(&p, &q), "%s %ld: decode(encode(p)) != p", what, n);
}

static void check_totality(void)
{
	static uint8_t data[MAX_BYTES];
	struct mmf_rand r;

	for (long b = 0; b < 256 + 65536; b++) {
		data[0] = b;
		data[1] = b >> 8;
		check_decode(data, b < 256 ? 1 : 2, "short string", b);
	}
	check_decode(data, 0, "empty string", 0);
	mmf_rand_seed(&r, 1);
	for (long i = 0; i < 100000; i++) {
		size_t len = mmf_rand_below(&r, MAX_BYTES + 1);

		for (size_t k = 0; k < len; k += 8) {
			uint64_t v = mmf_rand64(&r);

			memcpy(data + k, &v, MIN(8, len - k));
		}
		check_decode(data, len, "random string", i);
	}
}

static void check_round_trip(void)
{
	struct mmf_prog p, q;
	struct mmf_rand r;

	for (int seed = 0; seed < 2000; seed++) {
		uint8_t *buf;
		size_t need, cut;

		mmf_rand_seed(&r, seed);
		mmf_prog_generate(&r, 1 + seed % MMF_MAX_STMTS, &p);
		need = mmf_prog_encode(&p, NULL, 0);
		/* An exact-size buffer: ASan catches any write past it. */
		buf = mmf_xmalloc(need);
		CHECK(mmf_prog_encode(&p, buf, need) == need, "seed %d: size changed", seed);
		mmf_prog_decode(buf, need, &q);
		CHECK(prog_eq(&p, &q), "seed %d: decode(encode(p)) != p", seed);
		/* A short buffer gets the same prefix, and the full size back. */
		cut = mmf_rand_below(&r, need);
		CHECK(mmf_prog_encode(&p, buf, cut) == need, "seed %d: short size", seed);
		free(buf);
	}
}

static void random_prog(struct mmf_rand *r, struct mmf_prog *p)
{
	p->nr = mmf_rand_below(r, MMF_MAX_STMTS + 1);
	p->text_len = mmf_rand_below(r, 64);
	memset(p->text, 'x', sizeof(p->text));
	for (int i = 0; i < p->nr; i++) {
		struct mmf_stmt *s = &p->stmts[i];

		/* Mostly block statements and comments, the structure's corners. */
		s->id = mmf_rand_below(r, 2) ? MMF_FORK + (int)mmf_rand_below(r, 4) :
			(int)mmf_rand_below(r, MMF_NR_CALLS + 8) - 4;
		s->comment = mmf_rand_below(r, 128);
		for (int a = 0; a < MMF_MAX_ARGS; a++)
			s->args[a] = mmf_rand_below(r, 2) ? mmf_rand64(r) : mmf_rand_below(r, 4);
	}
}

static void check_normalize(void)
{
	struct mmf_prog p, q;
	struct mmf_rand r;

	mmf_rand_seed(&r, 2);
	for (long i = 0; i < 10000; i++) {
		random_prog(&r, &p);
		mmf_prog_normalize(&p);
		check_valid(&p, "normalized random program", i);
		q = p;
		mmf_prog_normalize(&q);
		CHECK(prog_eq(&p, &q), "random program %ld: normalize not idempotent", i);
	}
	for (int seed = 0; seed < 2000; seed++) {
		mmf_rand_seed(&r, seed);
		mmf_prog_generate(&r, 1 + seed % MMF_MAX_STMTS, &p);
		mmf_prog_add_comment(&p, "a comment", 9);
		check_valid(&p, "generated program", seed);
		q = p;
		mmf_prog_normalize(&q);
		CHECK(prog_eq(&p, &q), "seed %d: normalize changed a valid program", seed);
	}
}

static const struct tap_test tests[] = {
	TAP_TEST(check_totality),
	TAP_TEST(check_round_trip),
	TAP_TEST(check_normalize),
};

int main(void)
{
	return tap_run(tests);
}
