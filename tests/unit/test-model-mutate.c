// SPDX-License-Identifier: GPL-2.0
/*
 * Generation and mutation: always valid, deterministic from the seed,
 * mutation changes programs most of the time, generation reaches every call;
 * the named mutation is the same and names every kind of edit; removal
 * unwraps blocks.
 */
#include <string.h>

#include "model/prog.h"
#include "tap.h"
#include "util/rand.h"
#include "util/util.h"

#define NR_SEEDS	500
#define NR_CHAIN	200	/* mutations of one program, in a row */

static char *text_of(const struct mmf_prog *p)
{
	struct strbuf sb;

	mmf_sb_init(&sb);
	mmf_prog_print(p, &sb);
	return mmf_sb_detach(&sb);
}

static void check_valid(const struct mmf_prog *p, int seed, int k)
{
	char err[256];
	char *text;

	if (!mmf_prog_validate(p, err, sizeof(err)))
		return;
	text = text_of(p);
	CHECK(0, "seed %d mutation %d: %s\n%s", seed, k, err, text);
}

/* Mutants of mutants, with and without a splice partner, and comments. */
static void check_mutations(void)
{
	struct mmf_prog p, other;
	struct mmf_rand r;
	long changed = 0, total = 0;

	for (int seed = 0; seed < NR_SEEDS; seed++) {
		mmf_rand_seed(&r, seed);
		mmf_prog_generate(&r, 1 + mmf_rand_below(&r, 64), &p);
		mmf_prog_generate(&r, 1 + mmf_rand_below(&r, 64), &other);
		if (seed % 4 == 0)
			mmf_prog_add_comment(&p, "kept", 4);
		for (int k = 0; k < NR_CHAIN; k++) {
			uint64_t before = mmf_prog_hash(&p);

			mmf_prog_mutate(&r, &p, k % 2 ? &other : NULL);
			check_valid(&p, seed, k);
			changed += mmf_prog_hash(&p) != before;
			total++;
		}
	}
	printf("RATE: %ld of %ld mutations changed the program (%.1f%%)\n",
	       changed, total, 100.0 * changed / total);
	CHECK(changed * 100 >= total * 90, "only %ld of %ld mutations changed", changed, total);
}

/* Corners: the empty program, a full one, comments only. */
static void check_corners(void)
{
	struct mmf_prog p;
	struct mmf_rand r;

	mmf_rand_seed(&r, 3);
	for (int k = 0; k < 1000; k++) {
		p.nr = 0;
		p.text_len = 0;
		mmf_prog_mutate(&r, &p, NULL);
		check_valid(&p, -1, k);
		mmf_prog_generate(&r, MMF_MAX_STMTS, &p);
		CHECK(p.nr == MMF_MAX_STMTS, "%d statements", p.nr);
		mmf_prog_mutate(&r, &p, &p);
		check_valid(&p, -2, k);
		p.nr = 0;
		p.text_len = 0;
		while (mmf_prog_add_comment(&p, "c", 1) && p.nr < 3)
			;
		mmf_prog_mutate(&r, &p, NULL);
		check_valid(&p, -3, k);
	}
}

static char *generate_text(uint64_t seed, int calls)
{
	struct mmf_prog p;
	struct mmf_rand r;

	mmf_rand_seed(&r, seed);
	mmf_prog_generate(&r, calls, &p);
	return text_of(&p);
}

static char *mutate_text(uint64_t seed)
{
	struct mmf_prog p, other;
	struct mmf_rand r;

	mmf_rand_seed(&r, seed);
	mmf_prog_generate(&r, 40, &p);
	mmf_prog_generate(&r, 40, &other);
	for (int k = 0; k < 20; k++)
		mmf_prog_mutate(&r, &p, &other);
	return text_of(&p);
}

static void check_determinism(void)
{
	for (uint64_t seed = 0; seed < 200; seed++) {
		char *a = generate_text(seed, 64), *b = generate_text(seed, 64);
		char *c = generate_text(seed + 1, 64);

		CHECK(!strcmp(a, b), "seed %llu: generation differs", (unsigned long long)seed);
		CHECK(strcmp(a, c), "seeds %llu and +1 give the same program",
		      (unsigned long long)seed);
		free(a);
		free(b);
		free(c);
		a = mutate_text(seed);
		b = mutate_text(seed);
		CHECK(!strcmp(a, b), "seed %llu: mutation differs", (unsigned long long)seed);
		free(a);
		free(b);
	}
}

/*
 * Every swapoff is undone by a swapon of the same device later; count the
 * page calls (other than mmap) on a slot that an earlier mmap or mremap made.
 */
static void check_structure(const struct mmf_prog *p, int seed, long *on_mapped, long *on_pages)
{
	unsigned int off = 0, made = 0;

	for (int i = 0; i < p->nr; i++) {
		const struct mmf_stmt *s = &p->stmts[i];

		if (s->id == MMF_SWAPOFF)
			off |= 1u << s->args[0];
		else if (s->id == MMF_SWAPON)
			off &= ~(1u << s->args[0]);
		else if (s->id == MMF_MMAP || s->id == MMF_MREMAP)
			made |= 1u << s->args[s->id == MMF_MREMAP ? 3 : 0];
		if (s->id != MMF_MMAP && mmf_calls[s->id].flags & MMF_CALL_RANGE) {
			*on_mapped += (made >> s->args[0]) & 1;
			(*on_pages)++;
		}
	}
	CHECK(!off, "seed %d: swap devices 0x%x left off", seed, off);
}

static void check_generation(void)
{
	long seen[MMF_NR_CALLS] = { 0 }, stmts = 0, on_mapped = 0, on_pages = 0;
	struct mmf_prog p;
	struct mmf_rand r;
	char err[256];
	int rarest = 0;

	for (int seed = 0; seed < 2000; seed++) {
		int n = 1 + seed % 64;

		mmf_rand_seed(&r, seed);
		mmf_prog_generate(&r, n, &p);
		CHECK(!mmf_prog_validate(&p, err, sizeof(err)), "seed %d: %s", seed, err);
		CHECK(p.nr <= n && p.nr > 0, "seed %d: %d statements for %d", seed, p.nr, n);
		check_structure(&p, seed, &on_mapped, &on_pages);
		for (int i = 0; i < p.nr; i++)
			seen[p.stmts[i].id]++;
		stmts += p.nr;
	}
	printf("INFO: %.1f%% of page calls on a slot mapped before\n",
	       100.0 * on_mapped / on_pages);
	CHECK(on_mapped * 100 >= on_pages * 85, "%ld of %ld page calls on mapped slots",
	      on_mapped, on_pages);
	for (int c = 0; c < MMF_NR_CALLS; c++) {
		CHECK(seen[c], "no %s in 2000 generated programs", mmf_calls[c].name);
		if (seen[c] < seen[rarest])
			rarest = c;
	}
	printf("INFO: 2000 programs, %ld statements, all %d calls, rarest %s (%ld)\n",
	       stmts, MMF_NR_CALLS, mmf_calls[rarest].name, seen[rarest]);
}

static bool has_call(const struct mmf_prog *p, int id)
{
	for (int i = 0; i < p->nr; i++)
		if (p->stmts[i].id == id)
			return true;
	return false;
}

/*
 * mmf_prog_mutate_named makes what mmf_prog_mutate makes from the same rng,
 * reaches every edit, and names a call the result has where the edit adds
 * one, a block by its opener.
 */
static void check_named(void)
{
	static const char *const ops[] = {
		"arg", "insert", "remove", "replace", "duplicate", "swap", "splice", "wrap",
	};
	long seen[ARRAY_SIZE(ops)] = { 0 };
	struct mmf_prog p, q, other;
	struct mmf_mutation last;
	struct mmf_rand r, r2;
	struct strbuf sb;
	size_t op;

	for (int seed = 0; seed < 2000; seed++) {
		mmf_rand_seed(&r, seed);
		mmf_prog_generate(&r, 1 + mmf_rand_below(&r, 32), &p);
		mmf_prog_generate(&r, 1 + mmf_rand_below(&r, 32), &other);
		q = p;
		r2 = r;
		mmf_prog_mutate(&r, &p, &other);
		mmf_prog_mutate_named(&r2, &q, &other, &last);
		CHECK(mmf_prog_hash(&p) == mmf_prog_hash(&q), "seed %d: another program", seed);
		for (op = 0; op < ARRAY_SIZE(ops) && strcmp(ops[op], last.op); op++)
			;
		CHECK(op < ARRAY_SIZE(ops), "seed %d: edit %s", seed, last.op);
		seen[op]++;
		CHECK(last.stmt.id == MMF_COMMENT || (last.stmt.id >= 0 &&
		      last.stmt.id < MMF_NR_CALLS), "seed %d: %s of call %d", seed, last.op,
		      last.stmt.id);
		if (last.stmt.id == MMF_COMMENT) {
			CHECK(!strcmp(last.op, "splice") || !strcmp(last.op, "swap"),
			      "seed %d: %s of nothing", seed, last.op);
			continue;
		}
		CHECK(mmf_calls[last.stmt.id].block != MMF_BLOCK_END, "seed %d: %s of a }", seed,
		      last.op);
		if (strcmp(last.op, "remove") && strcmp(last.op, "splice") &&
		    strcmp(last.op, "swap"))
			CHECK(has_call(&q, last.stmt.id), "seed %d: %s of %s, not in the result",
			      seed, last.op, mmf_calls[last.stmt.id].name);
	}
	mmf_sb_init(&sb);
	for (op = 0; op < ARRAY_SIZE(ops); op++) {
		mmf_sb_printf(&sb, "%s %s %ld", op ? "," : "", ops[op], seen[op]);
		CHECK(seen[op], "no %s in 2000 mutations", ops[op]);
	}
	printf("INFO: last edits of 2000 mutations:%s\n", sb.buf);
	mmf_sb_free(&sb);
}

static int nr_plain(const struct mmf_prog *p)
{
	int n = 0;

	for (int i = 0; i < p->nr; i++)
		n += mmf_calls[p->stmts[i].id].block == MMF_BLOCK_NONE;
	return n;
}

/* Removing a call takes it; removing a block delimiter takes both, not the body. */
static void check_remove(void)
{
	struct mmf_prog p, q;
	struct mmf_rand r;
	char err[256];

	for (int seed = 0; seed < 300; seed++) {
		mmf_rand_seed(&r, seed);
		mmf_prog_generate(&r, 1 + seed % 64, &p);
		for (int i = 0; i < p.nr; i++) {
			enum mmf_block b = mmf_calls[p.stmts[i].id].block;
			bool delim = b == MMF_BLOCK_FORK || b == MMF_BLOCK_THREAD ||
				     b == MMF_BLOCK_END;

			q = p;
			mmf_prog_remove(&q, i);
			CHECK(q.nr == p.nr - 1 - delim, "seed %d: %d of %d statements after"
			      " removing %d", seed, q.nr, p.nr, i);
			CHECK(nr_plain(&q) == nr_plain(&p) - (b == MMF_BLOCK_NONE),
			      "seed %d: removing %d took %d plain calls", seed, i,
			      nr_plain(&p) - nr_plain(&q));
			mmf_prog_normalize(&q);
			CHECK(!mmf_prog_validate(&q, err, sizeof(err)), "seed %d: %s", seed, err);
		}
	}
}

static const struct tap_test tests[] = {
	TAP_TEST(check_generation),
	TAP_TEST(check_determinism),
	TAP_TEST(check_corners),
	TAP_TEST(check_mutations),
	TAP_TEST(check_named),
	TAP_TEST(check_remove),
};

int main(void)
{
	return tap_run(tests);
}
