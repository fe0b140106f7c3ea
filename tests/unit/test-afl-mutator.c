// SPDX-License-Identifier: GPL-2.0
/*
 * The AFL++ custom mutator, mmfuzz-mutator.so, loaded as afl-fuzz loads it:
 * what it hands out is always the canonical encoding of a program and fits
 * max_size, mutants mostly differ from their input, names are clean file
 * name parts, post_process canonicalizes any bytes to the program they
 * decode to, trimming keeps what the "coverage" needs, a seed gives the same
 * run, and nothing but the afl_custom_* API is exported.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "afl/mutator.h"
#include "model/prog.h"
#include "tap.h"
#include "util/rand.h"
#include "util/util.h"

#define CORPUS_DIR	"corpus"
#define NR_ITERS	6000
#define MAX_SEEDS	64
#define AFL_MAX_FILE	(1024 * 1024)	/* afl-fuzz's max_size */

static void *lib;
static __typeof__(afl_custom_init) *init;
static __typeof__(afl_custom_fuzz) *fuzz;
static __typeof__(afl_custom_describe) *describe;
static __typeof__(afl_custom_post_process) *post_process;
static __typeof__(afl_custom_init_trim) *init_trim;
static __typeof__(afl_custom_trim) *trim;
static __typeof__(afl_custom_post_trim) *post_trim;
static __typeof__(afl_custom_deinit) *deinit;

/* Inputs: the corpus and a corner encoded, the empty string, random bytes. */
struct bytes {
	uint8_t *buf;
	size_t len;
};

static struct bytes seeds[MAX_SEEDS];
static int nr_seeds, nr_corpus;

static struct bytes encode(const struct mmf_prog *p)
{
	struct bytes b = { .len = mmf_prog_encode(p, NULL, 0) };

	b.buf = mmf_xmalloc(b.len);
	mmf_prog_encode(p, b.buf, b.len);
	return b;
}

/* Canonical: the encoding of what the bytes decode to is the bytes. */
static bool canonical(const uint8_t *buf, size_t len)
{
	static struct mmf_prog p;
	struct bytes b;
	bool same;

	mmf_prog_decode(buf, len, &p);
	b = encode(&p);
	same = b.len == len && (!len || !memcmp(b.buf, buf, len));
	free(b.buf);
	return same;
}

static bool same_bytes(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	return alen == blen && (!alen || !memcmp(a, b, alen));
}

static void random_bytes(struct mmf_rand *r, uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = mmf_rand64(r);
}

/*
 * Without its join, the fifth block is one too many in flight; each block
 * has a call of its own, so that trimming reaches the join.
 */
#define FIVE_BLOCKS								\
	"m0 = mmap(0, 4, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"		\
	"thread {\n\twrite(m0, 0, 1, 0x1)\n}\nthread {\n\tread(m0, 0, 1)\n}\n"	\
	"thread {\n\tmlock(m0, 0, 1)\n}\nthread {\n\tmunlock(m0, 0, 1)\n}\n"	\
	"join\nthread {\n\tmadvise(m0, 0, 4, MADV_COLD)\n}\n"

static void load_seeds(void)
{
	static struct mmf_prog p;
	struct dirent *e;
	struct mmf_rand r;
	char err[256];
	DIR *d = opendir(CORPUS_DIR);

	CHECK(d, "no %s/ (run from the repository)", CORPUS_DIR);
	while ((e = readdir(d)) && nr_seeds < MAX_SEEDS / 2) {
		char *path, *text;
		size_t n = strlen(e->d_name);

		if (n < 4 || strcmp(e->d_name + n - 4, ".mmf"))
			continue;
		path = mmf_xasprintf("%s/%s", CORPUS_DIR, e->d_name);
		text = mmf_read_file(path, NULL);
		CHECK(text, "cannot read %s", path);
		CHECK(!mmf_prog_parse(text, &p, err, sizeof(err)), "%s: %s", path, err);
		seeds[nr_seeds++] = encode(&p);
		free(text);
		free(path);
	}
	closedir(d);
	CHECK(nr_seeds >= 10, "only %d programs in %s/", nr_seeds, CORPUS_DIR);
	CHECK(!mmf_prog_parse(FIVE_BLOCKS, &p, err, sizeof(err)), "five blocks: %s", err);
	seeds[nr_seeds++] = encode(&p);
	nr_corpus = nr_seeds;
	seeds[nr_seeds++] = (struct bytes){ mmf_xmalloc(1), 0 };
	mmf_rand_seed(&r, 1);
	while (nr_seeds < MAX_SEEDS) {
		struct bytes *b = &seeds[nr_seeds++];

		b->len = 1 + mmf_rand_below(&r, 800);
		b->buf = mmf_xmalloc(b->len);
		random_bytes(&r, b->buf, b->len);
	}
}

static void check_name(void *m, size_t max, int iter)
{
	const char *name = describe(m, max);
	size_t n = strlen(name);

	CHECK(n < max, "iteration %d: name of %zu bytes for %zu: %s", iter, n, max, name);
	CHECK(max < 8 || n > 0, "iteration %d: no name", iter);
	for (size_t i = 0; i < n; i++)
		CHECK(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-",
			     name[i]), "iteration %d: bad name %s", iter, name);
}

/*
 * Mutants of seeds and of mutants (AFL fuzzes its finds further), with and
 * without a splice partner, under AFL's max_size and small ones.
 */
static void test_fuzz(void)
{
	static const size_t max_sizes[] = { AFL_MAX_FILE, AFL_MAX_FILE, 64, 16, 0 };
	static uint8_t prev[AFL_MAX_FILE / 64];
	long changed = 0, full = 0, small = 0, cut = 0, generated = 0;
	size_t prev_len = 0;
	struct mmf_rand r;
	void *m = init(NULL, 42);

	CHECK(m, "init failed");
	mmf_rand_seed(&r, 2);
	for (int i = 0; i < NR_ITERS; i++) {
		const struct bytes *in = &seeds[mmf_rand_below(&r, nr_seeds)];
		const struct bytes *add = &seeds[mmf_rand_below(&r, nr_seeds)];
		size_t max = max_sizes[mmf_rand_below(&r, ARRAY_SIZE(max_sizes))], len;
		struct bytes input = *in, canon;
		uint8_t *out = NULL, *buf;
		static struct mmf_prog p;

		if (prev_len && mmf_rand_below(&r, 2))
			input = (struct bytes){ prev, prev_len };
		/* AFL's buffer is its own: the mutator may not rely on ours. */
		buf = mmf_xmalloc(input.len ?: 1);
		memcpy(buf, input.buf, input.len);
		len = fuzz(m, buf, input.len, &out, i % 3 ? add->buf : NULL, i % 3 ? add->len : 0,
			   max);
		free(buf);
		CHECK(out, "iteration %d: no buffer", i);
		CHECK(len <= max, "iteration %d: %zu bytes for max_size %zu", i, len, max);
		CHECK(canonical(out, len), "iteration %d: %zu bytes not canonical", i, len);
		check_name(m, i % 5 ? 64 : 1 + i % 12, i);
		generated += !strcmp(describe(m, 64), "generate");
		if (max == AFL_MAX_FILE) {
			mmf_prog_decode(input.buf, input.len, &p);
			canon = encode(&p);
			changed += !same_bytes(out, len, canon.buf, canon.len);
			full++;
			free(canon.buf);
		} else if (max) {
			cut += len > 0;
			small++;
		}
		if (len <= sizeof(prev)) {
			memcpy(prev, out, len);
			prev_len = len;
		}
	}
	deinit(m);
	printf("RATE: %ld of %ld mutants differ from their input (%.1f%%), %ld of %ld under"
	       " 16 or 64 bytes not empty\n", changed, full, 100.0 * changed / full, cut, small);
	CHECK(changed * 100 >= full * 95, "only %ld of %ld mutants differ", changed, full);
	/* A fresh program one time in MMF_GENERATE_ONE_IN. */
	printf("RATE: %ld of %d fresh programs\n", generated, NR_ITERS);
	CHECK(generated * 2 * MMF_GENERATE_ONE_IN >= NR_ITERS &&
	      generated * MMF_GENERATE_ONE_IN <= NR_ITERS * 2,
	      "%ld of %d inputs generated, not about one in %d", generated, NR_ITERS,
	      MMF_GENERATE_ONE_IN);
	/* A call is a dozen bytes: small max_sizes still give programs, short ones. */
	CHECK(cut * 100 >= small * 90, "only %ld of %ld small mutants not empty", cut, small);
}

/* Any bytes become the canonical encoding of the program they decode to. */
static void test_post_process(void)
{
	static uint8_t in[2048];
	static struct mmf_prog p, q;
	struct mmf_rand r;
	void *m = init(NULL, 7);

	mmf_rand_seed(&r, 3);
	for (int i = 0; i < NR_ITERS; i++) {
		size_t len = i < nr_seeds ? seeds[i].len : mmf_rand_below(&r, sizeof(in)), n, again;
		uint8_t *out = NULL, *out2 = NULL;
		struct bytes a, b;

		CHECK(len <= sizeof(in), "seed %d: %zu bytes", i, len);
		if (i < nr_seeds)
			memcpy(in, seeds[i].buf, len);
		else
			random_bytes(&r, in, len);
		n = post_process(m, in, len, &out);
		CHECK(out, "input %d: no buffer", i);
		CHECK(canonical(out, n), "input %d: %zu bytes not canonical", i, n);
		mmf_prog_decode(in, len, &p);
		mmf_prog_decode(out, n, &q);
		a = encode(&p);
		b = encode(&q);
		CHECK(same_bytes(a.buf, a.len, b.buf, b.len), "input %d: another program", i);
		free(a.buf);
		free(b.buf);
		CHECK(i >= nr_corpus || same_bytes(out, n, seeds[i].buf, seeds[i].len),
		      "corpus program %d changed", i);
		memcpy(in, out, n);
		again = post_process(m, in, n, &out2);
		CHECK(same_bytes(out2, again, in, n), "input %d: not idempotent", i);
	}
	deinit(m);
}

/* The "coverage" of the trimming test: the calls a program makes, its blocks. */
struct cover {
	uint64_t calls;
	int blocks;
};

static struct cover cover_of(const uint8_t *buf, size_t len)
{
	static struct mmf_prog p;
	struct cover c = { 0 };

	mmf_prog_decode(buf, len, &p);
	for (int i = 0; i < p.nr; i++) {
		c.calls |= 1ull << (p.stmts[i].id % 64);
		c.blocks += mmf_calls[p.stmts[i].id].block == MMF_BLOCK_FORK ||
			    mmf_calls[p.stmts[i].id].block == MMF_BLOCK_THREAD;
	}
	return c;
}

static bool same_cover(struct cover a, struct cover b)
{
	return a.calls == b.calls && a.blocks == b.blocks;
}

/* A plain call that the program makes twice: one trimming should remove. */
static int repeated_call(const uint8_t *buf, size_t len)
{
	static struct mmf_prog p;
	int seen[MMF_NR_CALLS] = { 0 };

	mmf_prog_decode(buf, len, &p);
	for (int i = 0; i < p.nr; i++)
		if (mmf_calls[p.stmts[i].id].block == MMF_BLOCK_NONE && seen[p.stmts[i].id]++)
			return p.stmts[i].id;
	return -1;
}

/*
 * Trimming as afl-fuzz drives it: a step succeeds when the candidate keeps
 * the input's coverage (here: its calls and its number of blocks). It ends within its step
 * count, every candidate is canonical, and the result has the same
 * coverage with each plain call once.
 */
static void test_trim(void)
{
	static uint8_t kept[AFL_MAX_FILE / 64];
	void *m = init(NULL, 9);

	for (int s = 0; s < nr_seeds; s++) {
		struct cover want = cover_of(seeds[s].buf, seeds[s].len);
		size_t kept_len = seeds[s].len;
		int32_t steps = init_trim(m, seeds[s].buf, seeds[s].len), at = 0, execs = 0;

		CHECK(steps >= 0 && kept_len <= sizeof(kept), "seed %d: %d steps", s, steps);
		memcpy(kept, seeds[s].buf, kept_len);
		while (at < steps) {
			uint8_t *out = NULL;
			size_t len = trim(m, &out);
			bool ok = out && len && same_cover(cover_of(out, len), want);

			CHECK(out, "seed %d: no buffer", s);
			CHECK(canonical(out, len), "seed %d: candidate not canonical", s);
			if (ok) {
				memcpy(kept, out, len);
				kept_len = len;
			}
			at = post_trim(m, ok);
			CHECK(++execs <= steps, "seed %d: %d steps of %d", s, execs, steps);
		}
		CHECK(same_cover(cover_of(kept, kept_len), want), "seed %d: coverage lost", s);
		CHECK(repeated_call(kept, kept_len) < 0, "seed %d: %s kept twice", s,
		      mmf_calls[repeated_call(kept, kept_len)].name);
	}
	deinit(m);
}

/* A run of the mutator: its outputs, concatenated. */
static struct bytes run(unsigned int seed)
{
	struct strbuf sb;
	void *m = init(NULL, seed);
	size_t len;

	mmf_sb_init(&sb);
	for (int i = 0; i < 500; i++) {
		uint8_t *out;
		const struct bytes *in = &seeds[i % nr_seeds], *add = &seeds[(i * 7) % nr_seeds];

		len = fuzz(m, in->buf, in->len, &out, add->buf, add->len, AFL_MAX_FILE);
		mmf_sb_add(&sb, (const char *)out, len);
		mmf_sb_puts(&sb, describe(m, 64));
	}
	deinit(m);
	len = sb.len;
	return (struct bytes){ (uint8_t *)mmf_sb_detach(&sb), len };
}

static void test_determinism(void)
{
	struct bytes a = run(5), b = run(5), c = run(6);

	CHECK(same_bytes(a.buf, a.len, b.buf, b.len), "seed 5 gives two runs");
	CHECK(!same_bytes(a.buf, a.len, c.buf, c.len), "seeds 5 and 6 give the same run");
	free(a.buf);
	free(b.buf);
	free(c.buf);
}

/* afl-fuzz sees the API; a test that links libmmfuzz keeps its own model. */
static void test_exports(void)
{
	FILE *nm = popen("nm -D --defined-only " MMF_AFL_MUTATOR, "r");
	char line[512], sym[256];
	int nr = 0;

	CHECK(nm, "cannot run nm");
	while (fgets(line, sizeof(line), nm)) {
		CHECK(sscanf(line, "%*s %*s %255s", sym) == 1, "nm says: %s", line);
		CHECK(!strncmp(sym, "afl_custom_", 11), "exported: %s", sym);
		nr++;
	}
	CHECK(pclose(nm) == 0, "nm -D failed");
	CHECK(nr == 8, "%d symbols exported, want the 8 of mutator.h", nr);
	CHECK(!dlsym(lib, "mmf_prog_decode"), "mmf_prog_decode is exported");
}

static void *sym(const char *name)
{
	void *p = dlsym(lib, name);

	CHECK(p, "%s: %s", name, dlerror());
	return p;
}

static const struct tap_test tests[] = {
	TAP_TEST(test_exports),
	TAP_TEST(test_fuzz),
	TAP_TEST(test_post_process),
	TAP_TEST(test_trim),
	TAP_TEST(test_determinism),
};

int main(void)
{
	/* RTLD_LOCAL as afl-fuzz: its symbols do not serve later objects. */
	lib = dlopen(MMF_AFL_MUTATOR, RTLD_NOW | RTLD_LOCAL);
	CHECK(lib, "dlopen: %s", dlerror());
	init = sym("afl_custom_init");
	fuzz = sym("afl_custom_fuzz");
	describe = sym("afl_custom_describe");
	post_process = sym("afl_custom_post_process");
	init_trim = sym("afl_custom_init_trim");
	trim = sym("afl_custom_trim");
	post_trim = sym("afl_custom_post_trim");
	deinit = sym("afl_custom_deinit");
	load_seeds();
	return tap_run(tests);
}
