// SPDX-License-Identifier: GPL-2.0
/*
 * The data-integrity oracle's shadow model (oracle/shadow.c, race.c) and the
 * accounting rules built on it (oracle/acct.c), one test per rule. Each test
 * parses a short program, applies its statements with chosen results and
 * checks what the model predicts. The model must be sound: where the kernel
 * does not guarantee one content it gives every candidate or none ("cannot
 * tell"), never a guess, or the fuzzer reports corruption that is not there.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "model/prog.h"
#include "oracle/acct.h"
#include "oracle/shadow.h"
#include "tap.h"
#include "util/util.h"

#define NONCE	0x5eed42
#define RW	"PROT_READ|PROT_WRITE"
#define ANON4	"mmap(0, 4, anon, " RW ", MAP_PRIVATE, 0)\n"

static struct mmf_prog prog;
static struct mmf_shadow *sh;	/* the parent's model; children get copies */
static int next_stmt;		/* cursor of ok() and step() */

static void load(const char *text)
{
	char err[160];

	CHECK(!mmf_prog_parse(text, &prog, err, sizeof(err)), "%s", err);
	/* As the executor makes it: zeroed memory is a model of nothing. */
	if (sh)
		mmf_shadow_delete(sh);
	sh = mmf_shadow_new(NONCE);
	next_stmt = 0;
}

/* What the executor returns for a call that did all of its range. */
static long success(const struct mmf_stmt *s)
{
	int idx, n;

	if (!mmf_stmt_range(s, &idx, &n))
		return 0;
	if (s->id == MMF_WRITE || s->id == MMF_READ)
		return n;
	if (s->id == MMF_MREMAP && (s->args[6] & MREMAP_FIXED))
		return s->args[3] * MMF_SLOT_PAGES + s->args[4];
	if (s->id == MMF_MREMAP)
		return idx;	/* resized in place */
	return 0;
}

static void apply(struct mmf_shadow *s, int i, long res)
{
	mmf_shadow_apply(s, &prog.stmts[i], i, res);
}

/* Statement i succeeded in the process that model s stands for. */
static void done(struct mmf_shadow *s, int i)
{
	apply(s, i, success(&prog.stmts[i]));
}

/* The next n statements succeed. */
static void ok(int n)
{
	for (; n > 0; n--)
		done(sh, next_stmt++);
}

/* The next statement returns res. */
static void step(long res)
{
	apply(sh, next_stmt++, res);
}

static void ok_all(void)
{
	ok(prog.nr - next_stmt);
}

static int pg(int m, int page)
{
	return m * MMF_SLOT_PAGES + page;
}

/* The word a write of tag stored at page p of slot m (it moves with mremap). */
static uint64_t word(int tag, int m, int p)
{
	return mmf_shadow_word(sh, tag, pg(m, p));
}

static bool known(const struct mmf_shadow *s, int idx)
{
	struct mmf_vset vs;

	return mmf_shadow_expect(s, idx, &vs);
}

static bool may_hold(const struct mmf_shadow *s, int idx, uint64_t v)
{
	struct mmf_vset vs;

	if (!mmf_shadow_expect(s, idx, &vs))
		return true;
	for (int i = 0; i < vs.n; i++)
		if (vs.v[i] == v)
			return true;
	return false;
}

static void expect_set(int line, const struct mmf_shadow *s, int idx, const uint64_t *v,
		       int n)
{
	struct mmf_vset vs;

	CHECK(mmf_shadow_expect(s, idx, &vs), "line %d: page %d not predicted", line, idx);
	CHECK(vs.n == n, "line %d: page %d has %d candidates, want %d", line, idx, vs.n, n);
	for (int i = 0; i < n; i++) {
		int j;

		for (j = 0; j < vs.n && vs.v[j] != v[i]; j++)
			;
		CHECK(j < vs.n, "line %d: page %d: 0x%016llx not a candidate", line, idx,
		      (unsigned long long)v[i]);
	}
}

/* The model predicts exactly the given candidates for page idx. */
#define EXPECT(s, idx, ...)							\
	expect_set(__LINE__, s, idx, (const uint64_t[]){ __VA_ARGS__ },	\
		   ARRAY_SIZE(((const uint64_t[]){ __VA_ARGS__ })))
#define UNKNOWN(s, idx)								\
	CHECK(!known(s, idx), "page %d should not be predicted", idx)

/* The errno acct expects statement i (not applied) to fail with, 0 if none. */
static int experr(const struct mmf_shadow *s, int i)
{
	const char *why = NULL;

	return mmf_acct_expected_errno(s, &prog.stmts[i], &why);
}

/* The child's model right after fork(): a deep copy, then the fork rule. */
static struct mmf_shadow *fork_model(void)
{
	struct mmf_shadow *c = xmalloc(sizeof(*c));

	*c = *sh;
	for (int o = 0; o < MMF_SHADOW_OBJS; o++) {
		size_t len = sh->objs[o].npages * sizeof(struct mmf_vset);

		if (!sh->objs[o].pages)
			continue;
		c->objs[o].pages = xmalloc(len);
		memcpy(c->objs[o].pages, sh->objs[o].pages, len);
	}
	mmf_shadow_fork_child(c);
	return c;
}

/* A fresh anonymous mapping reads as zero; a write stores its word, and
 * only on the pages it did before a fault (the result counts them).
 */
static void test_write_then_read(void)
{
	load("m0 = " ANON4
	     "write(m0, 1, 2, 0x11)\n"
	     "write(m0, 0, 4, 0x12)\n");
	ok(1);
	EXPECT(sh, pg(0, 0), 0);
	EXPECT(sh, pg(0, 3), 0);
	ok(1);
	EXPECT(sh, pg(0, 0), 0);
	EXPECT(sh, pg(0, 1), word(0x11, 0, 1));
	EXPECT(sh, pg(0, 2), word(0x11, 0, 2));
	step(1);
	EXPECT(sh, pg(0, 0), word(0x12, 0, 0));
	EXPECT(sh, pg(0, 1), word(0x11, 0, 1));
}

/* No mapping, no content: outside mappings and after munmap nothing is
 * predicted. A write that worked where the model saw no mapping proves the
 * model wrong: that page is unknown (content and locks) until mapped again.
 */
static void test_unmapped(void)
{
	load("m0 = " ANON4
	     "munmap(m0, 1, 2)\n"
	     "munmap(m0, 0, 1)\n"
	     "write(m1, 0, 1, 0x13)\n"
	     "m1 = mmap(0, 1, anon, " RW ", MAP_PRIVATE, 0)\n");
	UNKNOWN(sh, pg(0, 0));
	ok(1);
	UNKNOWN(sh, pg(0, 4));
	UNKNOWN(sh, pg(1, 0));
	ok(1);
	UNKNOWN(sh, pg(0, 1));
	UNKNOWN(sh, pg(0, 2));
	EXPECT(sh, pg(0, 3), 0);
	/* munmap fails (EINVAL) before changing anything. */
	step(-EINVAL);
	EXPECT(sh, pg(0, 0), 0);
	step(1);
	UNKNOWN(sh, pg(1, 0));
	CHECK(mmf_shadow_locked_pages(sh) == -1, "a lost page has no known lock state");
	ok(1);
	EXPECT(sh, pg(1, 0), 0);
	CHECK(mmf_shadow_locked_pages(sh) == 0, "mmap settles a lost page");
}

/* MADV_DONTNEED on private anonymous memory: the next touch maps a zero
 * page. A failed call (it stops at the first bad VMA) may or may not have
 * zapped a page.
 */
static void test_dontneed_private_anon(void)
{
	load("m0 = " ANON4
	     "write(m0, 0, 4, 0x21)\n"
	     "madvise(m0, 0, 2, MADV_DONTNEED)\n"
	     "madvise(m0, 2, 2, MADV_DONTNEED)\n");
	ok(3);
	EXPECT(sh, pg(0, 0), 0);
	EXPECT(sh, pg(0, 1), 0);
	EXPECT(sh, pg(0, 2), word(0x21, 0, 2));
	step(-EINVAL);
	EXPECT(sh, pg(0, 2), word(0x21, 0, 2), 0);
}

/* MADV_DONTNEED on shared memory (memfd, MAP_SHARED|MAP_ANONYMOUS) only
 * drops page table entries: the shmem page and its content stay.
 */
static void test_dontneed_shared(void)
{
	load("f0 = memfd(4)\n"
	     "m0 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "m1 = mmap(0, 4, anon, " RW ", MAP_SHARED, 0)\n"
	     "write(m0, 0, 4, 0x22)\n"
	     "write(m1, 0, 4, 0x23)\n"
	     "madvise(m0, 0, 4, MADV_DONTNEED)\n"
	     "madvise(m1, 0, 4, MADV_DONTNEED)\n"
	     "madvise(m1, 0, 4, MADV_DONTNEED_LOCKED)\n");
	ok_all();
	EXPECT(sh, pg(0, 0), word(0x22, 0, 0));
	EXPECT(sh, pg(1, 3), word(0x23, 1, 3));
}

/* MADV_DONTNEED on a MAP_PRIVATE file mapping drops the COWed copy: the page
 * is the file's again (what a MAP_SHARED mapping of it wrote). If it failed,
 * either.
 */
static void test_dontneed_private_file(void)
{
	load("f0 = memfd(4)\n"
	     "m0 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "m1 = mmap(0, 4, f0, " RW ", MAP_PRIVATE, 0)\n"
	     "write(m0, 0, 4, 0x24)\n"
	     "write(m1, 0, 4, 0x25)\n"
	     "madvise(m1, 0, 2, MADV_DONTNEED)\n"
	     "madvise(m1, 2, 2, MADV_DONTNEED)\n");
	ok(5);
	EXPECT(sh, pg(1, 0), word(0x25, 1, 0));
	ok(1);
	EXPECT(sh, pg(1, 0), word(0x24, 0, 0));
	EXPECT(sh, pg(1, 2), word(0x25, 1, 2));
	step(-EINVAL);
	EXPECT(sh, pg(1, 2), word(0x25, 1, 2), word(0x24, 0, 2));
}

/* MADV_FREE: the old content until reclaim discards the clean page, zero
 * after; a write dirties it again and is kept. A failed call may have freed
 * part of the range, so it gives the same union.
 */
static void test_madv_free(void)
{
	load("m0 = mmap(0, 2, anon, " RW ", MAP_PRIVATE, 0)\n"
	     "write(m0, 0, 2, 0x31)\n"
	     "madvise(m0, 0, 1, MADV_FREE)\n"
	     "read(m0, 0, 1)\n"
	     "write(m0, 0, 1, 0x32)\n"
	     "madvise(m0, 1, 1, MADV_FREE)\n");
	ok(3);
	EXPECT(sh, pg(0, 0), word(0x31, 0, 0), 0);
	EXPECT(sh, pg(0, 1), word(0x31, 0, 1));
	/* A read seeing the old content does not stop a later discard. */
	ok(1);
	EXPECT(sh, pg(0, 0), word(0x31, 0, 0), 0);
	ok(1);
	EXPECT(sh, pg(0, 0), word(0x32, 0, 0));
	step(-EINVAL);
	EXPECT(sh, pg(0, 1), word(0x31, 0, 1), 0);
}

/* MADV_REMOVE punches a hole in the shmem object: the page is zero through
 * every mapping viewing it, a private (not COWed) view included; a COWed
 * private copy is not the object's and keeps its content.
 */
static void test_madv_remove(void)
{
	load("f0 = memfd(4)\n"
	     "m0 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "m1 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "m2 = mmap(0, 4, f0, " RW ", MAP_PRIVATE, 0)\n"
	     "write(m0, 0, 4, 0x41)\n"
	     "write(m2, 1, 1, 0x42)\n"
	     "madvise(m1, 0, 2, MADV_REMOVE)\n"
	     "madvise(m1, 2, 2, MADV_REMOVE)\n"
	     "m3 = mmap(0, 2, anon, " RW ", MAP_SHARED, 0)\n"
	     "write(m3, 0, 2, 0x43)\n"
	     "madvise(m3, 0, 1, MADV_REMOVE)\n");
	ok(7);
	EXPECT(sh, pg(0, 0), 0);
	EXPECT(sh, pg(1, 0), 0);
	EXPECT(sh, pg(2, 0), 0);
	EXPECT(sh, pg(2, 1), word(0x42, 2, 1));
	step(-EINVAL);
	EXPECT(sh, pg(0, 2), word(0x41, 0, 2), 0);
	EXPECT(sh, pg(1, 3), word(0x41, 0, 3), 0);
	ok(3);
	EXPECT(sh, pg(3, 0), 0);
	EXPECT(sh, pg(3, 1), word(0x43, 3, 1));
}

/* MADV_WIPEONFORK: the child gets zero-filled private anonymous memory, the
 * parent keeps its own; MADV_KEEPONFORK undoes it; a failed WIPEONFORK may
 * have set it on the page.
 */
static void test_wipeonfork(void)
{
	struct mmf_shadow *child;

	load("m0 = " ANON4
	     "write(m0, 0, 4, 0x51)\n"
	     "madvise(m0, 0, 2, MADV_WIPEONFORK)\n"
	     "madvise(m0, 1, 1, MADV_KEEPONFORK)\n"
	     "madvise(m0, 2, 1, MADV_WIPEONFORK)\n");
	ok(4);
	step(-EINVAL);
	child = fork_model();
	EXPECT(child, pg(0, 0), 0);
	EXPECT(child, pg(0, 1), word(0x51, 0, 1));
	EXPECT(child, pg(0, 2), word(0x51, 0, 2), 0);
	EXPECT(child, pg(0, 3), word(0x51, 0, 3));
	EXPECT(sh, pg(0, 0), word(0x51, 0, 0));
	mmf_shadow_delete(child);
}

/* MADV_DONTFORK: the range is not mapped in the child at all (mlock there
 * fails with ENOMEM); MADV_DOFORK undoes it. Locks are not inherited.
 */
static void test_dontfork(void)
{
	struct mmf_shadow *child;

	load("m0 = " ANON4
	     "write(m0, 0, 4, 0x52)\n"
	     "mlock(m0, 0, 4)\n"
	     "madvise(m0, 0, 2, MADV_DONTFORK)\n"
	     "madvise(m0, 1, 1, MADV_DOFORK)\n"
	     "mlock(m0, 0, 1)\n"
	     "mlock(m0, 1, 3)\n");
	ok(5);
	child = fork_model();
	UNKNOWN(child, pg(0, 0));
	CHECK(experr(child, 5) == ENOMEM, "DONTFORK page must be a hole in the child");
	EXPECT(child, pg(0, 1), word(0x52, 0, 1));
	CHECK(experr(child, 6) == 0, "DOFORK pages are mapped in the child");
	CHECK(mmf_shadow_locked_pages(child) == 0, "the child locks nothing");
	CHECK(mmf_shadow_locked_pages(sh) == 4, "the parent keeps its locks");
	EXPECT(sh, pg(0, 0), word(0x52, 0, 0));
	mmf_shadow_delete(child);
}

/* A page whose mapping the model lost stays unknown in a child, whatever
 * DONTFORK said of an older mapping there. Here a failed mremap loses m0,
 * then growing it works: the new pages continue a VMA the model no longer
 * knows (really the MAP_FIXED one, without DONTFORK: mapped in the child).
 */
static void test_fork_lost_page(void)
{
	struct mmf_shadow *child;

	load("m0 = mmap(0, 8, anon, " RW ", MAP_PRIVATE, 0)\n"
	     "madvise(m0, 0, 8, MADV_DONTFORK)\n"
	     "munmap(m0, 4, 4)\n"
	     "m0 = mmap(0, 4, anon, " RW ", MAP_PRIVATE, MAP_FIXED)\n"
	     "mremap(m0, 0, 4, m1, 0, 4, MREMAP_MAYMOVE|MREMAP_FIXED)\n"
	     "mremap(m0, 0, 4, m0, 0, 8, 0)\n"
	     "mlock(m0, 4, 4)\n");
	ok(4);
	step(-ENOMEM);
	ok(1);
	UNKNOWN(sh, pg(0, 5));
	child = fork_model();
	UNKNOWN(child, pg(0, 5));
	CHECK(experr(child, 6) == 0, "a lost page is no known hole in the child");
	CHECK(mmf_shadow_locked_pages(child) == -1, "lost pages stay lost in the child");
	mmf_shadow_delete(child);
}

/* Reclaim, hints, population, locking, swap and reads move pages around or
 * look at them; they never change what a page holds, failed or not.
 */
static void test_content_neutral(void)
{
	static const char *const calls[] = {
		"madvise(m%d, 0, 4, MADV_PAGEOUT)", "madvise(m%d, 0, 4, MADV_COLD)",
		"madvise(m%d, 0, 4, MADV_WILLNEED)", "madvise(m%d, 0, 4, MADV_POPULATE_READ)",
		"madvise(m%d, 0, 4, MADV_POPULATE_WRITE)", "madvise(m%d, 0, 4, MADV_NORMAL)",
		"madvise(m%d, 0, 4, MADV_MERGEABLE)", "madvise(m%d, 0, 4, MADV_HUGEPAGE)",
		"madvise(m%d, 0, 4, MADV_COLLAPSE)", "madvise(m%d, 0, 4, MADV_DONTDUMP)",
		"process_madvise(m%d, 0, 4, self, MADV_PAGEOUT)",
		"process_madvise(m%d, 0, 4, c0, MADV_COLD)",
		"mlock(m%d, 0, 4)", "mlock2(m%d, 0, 4, MLOCK_ONFAULT)", "munlock(m%d, 0, 4)",
		"mincore(m%d, 0, 4)", "msync(m%d, 0, 4, MS_SYNC)", "read(m%d, 0, 4)",
		"mprotect(m%d, 0, 4, PROT_READ)", "mlockall(MCL_CURRENT|MCL_FUTURE)",
		"munlockall()", "swapoff(s0)", "swapon(s0, -1, 0)",
		/* track D: placement moves pages, whole. */
		"mbind(m%d, 0, 4, MPOL_BIND, 0, MPOL_MF_MOVE|MPOL_MF_STRICT)",
		"mbind(m%d, 0, 4, MPOL_DEFAULT, -1, 0)", "move_pages(m%d, 0, 4, self, 0)",
		"move_pages(m%d, 0, 4, c0, -1)", "migrate_pages(self, 0, 1)",
		"migrate_pages(c1, 0, 0)", "compact_memory()",
	};
	static const long results[] = { 0, -EINVAL };
	/* Private anon, shared memfd, COWed private file, shared anon. */
	static const char setup[] =
		"f0 = memfd(4)\n"
		"m0 = " ANON4
		"m1 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
		"m2 = mmap(0, 4, f0, " RW ", MAP_PRIVATE, 0)\n"
		"m3 = mmap(0, 4, anon, " RW ", MAP_SHARED, 0)\n"
		"write(m1, 0, 4, 0x61)\n"
		"write(m0, 0, 4, 0x62)\n"
		"write(m2, 0, 4, 0x63)\n"
		"write(m3, 0, 4, 0x64)\n";
	char text[sizeof(setup) + 64];

	for (size_t c = 0; c < ARRAY_SIZE(calls); c++) {
		for (int m = 0; m < 4; m++) {
			/* Calls without a range once. */
			if (m && !strchr(calls[c], '%'))
				break;
			for (size_t r = 0; r < ARRAY_SIZE(results); r++) {
				int n = snprintf(text, sizeof(text), "%s", setup);

				snprintf(text + n, sizeof(text) - n, calls[c], m);
				strcat(text, "\n");
				load(text);
				ok(prog.nr - 1);
				step(results[r]);
				for (int p = 0; p < 4; p += 3) {
					EXPECT(sh, pg(0, p), word(0x62, 0, p));
					EXPECT(sh, pg(1, p), word(0x61, 1, p));
					EXPECT(sh, pg(2, p), word(0x63, 2, p));
					EXPECT(sh, pg(3, p), word(0x64, 3, p));
				}
			}
		}
	}
}

/* mremap(MREMAP_MAYMOVE|MREMAP_FIXED) moves the pages: their content (the
 * words written at the old place) is at the destination, the source is a
 * hole.
 */
static void test_mremap_move(void)
{
	load("m0 = " ANON4
	     "write(m0, 0, 4, 0x71)\n"
	     "mremap(m0, 0, 4, m1, 8, 4, MREMAP_MAYMOVE|MREMAP_FIXED)\n"
	     "mlock(m0, 0, 4)\n");
	ok(3);
	EXPECT(sh, pg(1, 8), word(0x71, 0, 0));
	EXPECT(sh, pg(1, 11), word(0x71, 0, 3));
	UNKNOWN(sh, pg(0, 0));
	CHECK(experr(sh, 3) == ENOMEM, "the source of a move is a hole");
}

/* MREMAP_DONTUNMAP leaves the source mapped but empty: private anonymous
 * pages refault as zero, private file pages as the file, shared pages from
 * their object. The lock moves with the pages.
 */
static void test_mremap_dontunmap(void)
{
	load("f0 = memfd(4)\n"
	     "m0 = " ANON4
	     "m2 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "m4 = mmap(0, 4, f0, " RW ", MAP_PRIVATE, 0)\n"
	     "write(m0, 0, 4, 0x72)\n"
	     "write(m2, 0, 4, 0x73)\n"
	     "write(m4, 0, 4, 0x74)\n"
	     "mlock(m0, 0, 4)\n"
	     "mremap(m0, 0, 4, m1, 0, 4, MREMAP_MAYMOVE|MREMAP_FIXED|MREMAP_DONTUNMAP)\n"
	     "mremap(m2, 0, 4, m3, 0, 4, MREMAP_MAYMOVE|MREMAP_FIXED|MREMAP_DONTUNMAP)\n"
	     "mremap(m4, 0, 4, m5, 0, 4, MREMAP_MAYMOVE|MREMAP_FIXED|MREMAP_DONTUNMAP)\n"
	     "madvise(m0, 0, 4, MADV_DONTNEED)\n"
	     "madvise(m1, 0, 4, MADV_DONTNEED)\n");
	ok(11);
	EXPECT(sh, pg(0, 0), 0);
	EXPECT(sh, pg(1, 0), word(0x72, 0, 0));
	EXPECT(sh, pg(2, 1), word(0x73, 2, 1));
	EXPECT(sh, pg(3, 1), word(0x73, 2, 1));
	EXPECT(sh, pg(4, 2), word(0x73, 2, 2));
	EXPECT(sh, pg(5, 2), word(0x74, 4, 2));
	CHECK(experr(sh, 11) == 0, "the DONTUNMAP source is unlocked");
	CHECK(experr(sh, 12) == EINVAL, "the destination keeps the lock");
	CHECK(mmf_shadow_locked_pages(sh) == 4, "only the moved pages are locked");
}

/* mremap in place: shrinking unmaps the tail; growing extends the VMA with
 * fresh pages, zero for anonymous memory and the following file pages for a
 * file. A move may grow too.
 */
static void test_mremap_resize(void)
{
	load("m0 = mmap(0, 8, anon, " RW ", MAP_PRIVATE, 0)\n"
	     "write(m0, 0, 8, 0x75)\n"
	     "mremap(m0, 0, 8, m0, 0, 4, 0)\n"
	     "mremap(m0, 0, 4, m0, 0, 6, 0)\n"
	     "f0 = memfd(8)\n"
	     "m1 = mmap(0, 8, f0, " RW ", MAP_SHARED, 0)\n"
	     "write(m1, 0, 8, 0x76)\n"
	     "m2 = mmap(2, 2, f0, " RW ", MAP_SHARED, 0)\n"
	     "mremap(m2, 2, 2, m2, 2, 4, 0)\n"
	     "mremap(m0, 0, 6, m3, 0, 8, MREMAP_MAYMOVE|MREMAP_FIXED)\n");
	ok(3);
	EXPECT(sh, pg(0, 3), word(0x75, 0, 3));
	UNKNOWN(sh, pg(0, 4));
	UNKNOWN(sh, pg(0, 7));
	ok(1);
	EXPECT(sh, pg(0, 3), word(0x75, 0, 3));
	EXPECT(sh, pg(0, 4), 0);
	EXPECT(sh, pg(0, 5), 0);
	UNKNOWN(sh, pg(0, 6));
	ok(5);
	EXPECT(sh, pg(2, 3), word(0x76, 1, 3));
	EXPECT(sh, pg(2, 4), word(0x76, 1, 4));
	EXPECT(sh, pg(2, 5), word(0x76, 1, 5));
	ok(1);
	UNKNOWN(sh, pg(0, 0));
	EXPECT(sh, pg(3, 0), word(0x75, 0, 0));
	EXPECT(sh, pg(3, 5), 0);
	EXPECT(sh, pg(3, 7), 0);
}

/* Pages a resize adds belong to the same VMA: WIPEONFORK, DONTFORK and the
 * (possibly unknown) lock state of the VMA cover them too.
 */
static void test_mremap_grow_inherits(void)
{
	struct mmf_shadow *child;

	load("m0 = mmap(0, 2, anon, " RW ", MAP_PRIVATE, 0)\n"
	     "madvise(m0, 0, 2, MADV_WIPEONFORK)\n"
	     "mremap(m0, 0, 2, m0, 0, 4, 0)\n"
	     "write(m0, 0, 4, 0x77)\n"
	     "m1 = mmap(0, 2, anon, " RW ", MAP_PRIVATE, 0)\n"
	     "madvise(m1, 0, 2, MADV_DONTFORK)\n"
	     "mremap(m1, 0, 2, m1, 0, 4, 0)\n"
	     "m2 = mmap(0, 2, anon, " RW ", MAP_PRIVATE, 0)\n"
	     "mlock(m2, 0, 2)\n"
	     "munlock(m2, 0, 2)\n"
	     "mremap(m2, 0, 2, m2, 0, 4, 0)\n"
	     "mlock(m1, 2, 2)\n"
	     "madvise(m2, 2, 2, MADV_DONTNEED)\n");
	ok(9);
	step(-ENOMEM);
	ok(1);
	child = fork_model();
	EXPECT(sh, pg(0, 3), word(0x77, 0, 3));
	EXPECT(child, pg(0, 3), 0);
	UNKNOWN(child, pg(1, 3));
	CHECK(experr(child, 11) == ENOMEM, "grown DONTFORK pages are a hole in the child");
	CHECK(experr(sh, 12) == 0, "grown pages of a VMA of unknown lock state");
	mmf_shadow_delete(child);
}

/* A failed mremap may have moved part of the range, or already unmapped the
 * MREMAP_FIXED destination: neither is predicted until mapped again. Without
 * MREMAP_FIXED the destination is left alone.
 */
static void test_mremap_failed(void)
{
	load("m0 = " ANON4 "m1 = " ANON4 "m2 = " ANON4 "m3 = " ANON4
	     "mremap(m0, 0, 4, m1, 0, 4, MREMAP_MAYMOVE|MREMAP_FIXED)\n"
	     "mremap(m2, 0, 4, m3, 0, 8, 0)\n"
	     "m0 = mmap(0, 4, anon, " RW ", MAP_PRIVATE, MAP_FIXED)\n"
	     "mlock(m0, 0, 4)\n");
	ok(4);
	step(-ENOMEM);
	UNKNOWN(sh, pg(0, 0));
	UNKNOWN(sh, pg(1, 3));
	CHECK(experr(sh, 7) == 0, "no expectation on a lost range");
	CHECK(mmf_shadow_locked_pages(sh) == -1, "lost pages, unknown locks");
	step(-ENOMEM);
	UNKNOWN(sh, pg(2, 0));
	EXPECT(sh, pg(3, 0), 0);
	ok(1);
	EXPECT(sh, pg(0, 0), 0);
}

/* A failed MAP_FIXED mmap may have unmapped the old range already; a failed
 * MAP_FIXED_NOREPLACE one (what mmap without MAP_FIXED runs) touched nothing.
 */
static void test_mmap_failed(void)
{
	load("m0 = " ANON4
	     "write(m0, 0, 4, 0x81)\n"
	     "m0 = mmap(0, 2, anon, " RW ", MAP_PRIVATE, MAP_FIXED)\n"
	     "m0 = mmap(2, 2, anon, " RW ", MAP_PRIVATE, 0)\n"
	     "m0 = mmap(0, 2, anon, " RW ", MAP_SHARED, MAP_FIXED)\n");
	ok(2);
	step(-ENOMEM);
	UNKNOWN(sh, pg(0, 0));
	UNKNOWN(sh, pg(0, 1));
	EXPECT(sh, pg(0, 2), word(0x81, 0, 2));
	step(-EEXIST);
	EXPECT(sh, pg(0, 3), word(0x81, 0, 3));
	ok(1);
	EXPECT(sh, pg(0, 0), 0);
}

/* A MAP_PRIVATE file page is a view of the file until written: it sees what
 * a MAP_SHARED mapping writes; its first write gives it a COWed copy that no
 * later file change reaches. The file offset is the mmap page argument; past
 * the end of the file (SIGBUS) nothing is predicted.
 */
static void test_private_file_view(void)
{
	load("f0 = memfd(4)\n"
	     "m0 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "m1 = mmap(0, 4, f0, " RW ", MAP_PRIVATE, 0)\n"
	     "m2 = mmap(2, 4, f0, PROT_READ, MAP_PRIVATE, 0)\n"
	     "write(m0, 0, 4, 0x91)\n"
	     "write(m1, 0, 1, 0x92)\n"
	     "write(m0, 0, 4, 0x93)\n");
	ok(4);
	EXPECT(sh, pg(1, 0), 0);
	ok(1);
	EXPECT(sh, pg(1, 0), word(0x91, 0, 0));
	EXPECT(sh, pg(2, 3), word(0x91, 0, 3));
	UNKNOWN(sh, pg(2, 4));
	ok(1);
	EXPECT(sh, pg(1, 0), word(0x92, 1, 0));
	ok(1);
	EXPECT(sh, pg(1, 0), word(0x92, 1, 0));
	EXPECT(sh, pg(1, 1), word(0x93, 0, 1));
	EXPECT(sh, pg(2, 2), word(0x93, 0, 2));
}

/* Populating a writable MAP_PRIVATE file mapping (MAP_POPULATE, MAP_LOCKED,
 * mlock, MADV_POPULATE_WRITE) write-faults it: a COWed snapshot of the file
 * at that time, which the model keeps as "snapshot or file". Read-only ones
 * and MLOCK_ONFAULT are not write-faulted: they stay views.
 */
static void test_private_file_populate(void)
{
	uint64_t old, new;

	load("f0 = memfd(4)\n"
	     "m0 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "write(m0, 0, 4, 0xa1)\n"
	     "m1 = mmap(0, 4, f0, " RW ", MAP_PRIVATE, MAP_POPULATE)\n"
	     "m2 = mmap(0, 4, f0, PROT_READ, MAP_PRIVATE, MAP_POPULATE)\n"
	     "m3 = mmap(0, 4, f0, " RW ", MAP_PRIVATE, 0)\n"
	     "mlock(m3, 0, 4)\n"
	     "m4 = mmap(0, 4, f0, " RW ", MAP_PRIVATE, MAP_LOCKED)\n"
	     "m5 = mmap(0, 4, f0, " RW ", MAP_PRIVATE, 0)\n"
	     "madvise(m5, 0, 4, MADV_POPULATE_WRITE)\n"
	     "m6 = mmap(0, 4, f0, " RW ", MAP_PRIVATE, 0)\n"
	     "mlock2(m6, 0, 4, MLOCK_ONFAULT)\n"
	     "write(m0, 0, 4, 0xa2)\n");
	ok_all();
	old = word(0xa1, 0, 0);
	new = word(0xa2, 0, 0);
	EXPECT(sh, pg(1, 0), new, old);
	EXPECT(sh, pg(2, 0), new);
	EXPECT(sh, pg(3, 0), new, old);
	EXPECT(sh, pg(4, 0), new, old);
	EXPECT(sh, pg(5, 0), new, old);
	EXPECT(sh, pg(6, 0), new);
}

/* mprotect() making a locked private mapping writable populates it for
 * write (mprotect_fixup(): "Private VM_LOCKED VMA becoming writable: trigger
 * COW"), which snapshots its file pages; unlocked, it changes no page.
 */
static void test_mprotect_locked_cow(void)
{
	load("f0 = memfd(4)\n"
	     "m0 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "m1 = mmap(0, 4, f0, PROT_READ, MAP_PRIVATE, MAP_LOCKED)\n"
	     "m2 = mmap(0, 4, f0, PROT_READ, MAP_PRIVATE, 0)\n"
	     "write(m0, 0, 4, 0xb1)\n"
	     "mprotect(m1, 0, 4, " RW ")\n"
	     "mprotect(m2, 0, 4, " RW ")\n"
	     "write(m0, 0, 4, 0xb2)\n");
	ok_all();
	EXPECT(sh, pg(1, 0), word(0xb2, 0, 0), word(0xb1, 0, 0));
	EXPECT(sh, pg(2, 0), word(0xb2, 0, 0));
}

/* memfd/tmpfile on a used file slot makes a new zero-filled object; mappings
 * of the old one still view it. A slot with no file cannot be mapped (the
 * range stays a hole); a mapping the model cannot explain (a failed memfd
 * left the old file in the slot) is not predicted.
 */
static void test_file_recreate(void)
{
	load("f0 = memfd(4)\n"
	     "m0 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "write(m0, 0, 4, 0xc1)\n"
	     "f0 = tmpfile(4)\n"
	     "m1 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "m2 = mmap(0, 4, f1, " RW ", MAP_SHARED, 0)\n"
	     "f1 = memfd(4)\n"
	     "f1 = memfd(4)\n"
	     "m3 = mmap(0, 4, f1, " RW ", MAP_SHARED, 0)\n"
	     "mlock(m2, 0, 4)\n");
	ok(5);
	EXPECT(sh, pg(0, 0), word(0xc1, 0, 0));
	EXPECT(sh, pg(1, 0), 0);
	step(-EBADF);
	UNKNOWN(sh, pg(2, 0));
	CHECK(experr(sh, 9) == ENOMEM, "an unmappable file leaves a hole");
	ok(1);
	step(-EMFILE);
	ok(1);
	UNKNOWN(sh, pg(3, 0));
	CHECK(mmf_shadow_locked_pages(sh) == -1, "an unexplained mapping is lost");
}

/* More candidates than a value set holds: stop predicting rather than drop
 * one. Each mlock write-populates the private view, so every file content
 * it has seen may be its COWed snapshot.
 */
static void test_vset_overflow(void)
{
	struct strbuf sb;
	struct mmf_vset vs;

	sb_init(&sb);
	sb_puts(&sb, "f0 = memfd(1)\n"
		"m0 = mmap(0, 1, f0, " RW ", MAP_SHARED, 0)\n"
		"m1 = mmap(0, 1, f0, " RW ", MAP_PRIVATE, 0)\n");
	for (int k = 1; k <= MMF_VSET_MAX + 1; k++)
		sb_printf(&sb, "write(m0, 0, 1, %d)\nmlock(m1, 0, 1)\n", k);
	sb_puts(&sb, "write(m1, 0, 1, 0xff)\n");
	load(sb.buf);
	sb_free(&sb);
	ok(3);
	for (int k = 1; k <= MMF_VSET_MAX + 1; k++) {
		ok(1);
		if (k <= MMF_VSET_MAX) {
			vs.n = 0;
			CHECK(mmf_shadow_expect(sh, pg(1, 0), &vs) && vs.n == k,
			      "%d file contents seen, %d candidates", k, vs.n);
			CHECK(may_hold(sh, pg(1, 0), word(k, 0, 0)), "the file's content");
		} else {
			UNKNOWN(sh, pg(1, 0));
		}
		ok(1);
	}
	ok(1);
	EXPECT(sh, pg(1, 0), word(0xff, 1, 0));
}

/* Threads share the address space: a slot that a thread and the main line
 * both touch may change under either, so nothing in it is predicted while
 * they run, nor after, until it is mapped again. A slot that only one of
 * them touches is theirs alone.
 */
static void test_thread_contested_slot(void)
{
	load("m0 = " ANON4 "m1 = " ANON4 "m2 = " ANON4
	     "write(m0, 0, 4, 0x01)\n"
	     "thread {\n"
	     "\twrite(m0, 0, 1, 0x02)\n"
	     "\twrite(m1, 0, 4, 0x03)\n"
	     "}\n"
	     "read(m0, 0, 4)\n"
	     "write(m2, 0, 4, 0x04)\n"
	     "join\n"
	     "m0 = mmap(0, 4, anon, " RW ", MAP_PRIVATE, MAP_FIXED)\n");
	ok(4);
	mmf_shadow_group_begin(sh, &prog, 4, 10);
	UNKNOWN(sh, pg(0, 0));
	UNKNOWN(sh, pg(0, 3));
	done(sh, 5);
	done(sh, 8);
	done(sh, 6);
	done(sh, 9);
	UNKNOWN(sh, pg(0, 0));
	EXPECT(sh, pg(1, 0), word(0x03, 1, 0));
	EXPECT(sh, pg(2, 0), word(0x04, 2, 0));
	mmf_shadow_group_end(sh);
	UNKNOWN(sh, pg(0, 1));
	EXPECT(sh, pg(1, 0), word(0x03, 1, 0));
	done(sh, 11);
	EXPECT(sh, pg(0, 1), 0);
}

/* A fork child has its own copy of private memory (COW): it and the parent
 * writing the same private anonymous slot do not race. A memfd page they
 * both reach is one page: unknown while both run, and after the join until
 * written again.
 */
static void test_fork_private_vs_shared(void)
{
	struct mmf_shadow *child;

	load("m0 = " ANON4
	     "f0 = memfd(4)\n"
	     "m1 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "write(m0, 0, 4, 0x11)\n"
	     "write(m1, 0, 4, 0x12)\n"
	     "c0 = fork {\n"
	     "\twrite(m0, 0, 4, 0x13)\n"
	     "\twrite(m1, 0, 1, 0x14)\n"
	     "}\n"
	     "write(m0, 0, 4, 0x15)\n"
	     "write(m1, 1, 1, 0x16)\n"
	     "join\n"
	     "write(m1, 0, 1, 0x17)\n");
	ok(5);
	mmf_shadow_group_begin(sh, &prog, 5, 11);
	child = fork_model();
	mmf_shadow_child_of(child, &prog, 5, 5);
	mmf_shadow_forked(sh, &prog, 5, 5);
	done(child, 6);
	done(child, 7);
	EXPECT(child, pg(0, 0), word(0x13, 0, 0));
	UNKNOWN(child, pg(1, 0));
	done(sh, 9);
	done(sh, 10);
	EXPECT(sh, pg(0, 0), word(0x15, 0, 0));
	UNKNOWN(sh, pg(1, 0));
	UNKNOWN(sh, pg(1, 1));
	mmf_shadow_group_end(sh);
	UNKNOWN(sh, pg(1, 0));
	done(sh, 12);
	EXPECT(sh, pg(1, 0), word(0x17, 1, 0));
	UNKNOWN(sh, pg(1, 1));
	mmf_shadow_delete(child);
}

/* The parent cannot see what a fork child does to shared objects: each one
 * the child's block reaches is unknown in the parent from the fork on, even
 * if the main line leaves it alone. Objects the child does not reach, and
 * private memory, stay predicted.
 */
static void test_forked_loses_child_objects(void)
{
	load("f0 = memfd(4)\n"
	     "m0 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "m1 = mmap(0, 4, anon, " RW ", MAP_SHARED, 0)\n"
	     "m2 = " ANON4
	     "write(m0, 0, 4, 0x21)\n"
	     "write(m1, 0, 4, 0x22)\n"
	     "write(m2, 0, 4, 0x23)\n"
	     "c1 = fork {\n"
	     "\tmadvise(m1, 0, 4, MADV_REMOVE)\n"
	     "\twrite(m2, 0, 4, 0x24)\n"
	     "}\n"
	     "join\n");
	ok(7);
	mmf_shadow_group_begin(sh, &prog, 7, 11);
	EXPECT(sh, pg(1, 0), word(0x22, 1, 0));
	mmf_shadow_forked(sh, &prog, 7, 7);
	UNKNOWN(sh, pg(1, 0));
	EXPECT(sh, pg(0, 0), word(0x21, 0, 0));
	EXPECT(sh, pg(2, 0), word(0x23, 2, 0));
	mmf_shadow_group_end(sh);
	UNKNOWN(sh, pg(1, 0));
}

/* A hole punched (MADV_REMOVE) in an object another party may write at the
 * same time is not known to stay a hole: that write may come after it.
 */
static void test_remove_raced(void)
{
	load("f0 = memfd(4)\n"
	     "m0 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "m1 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "c0 = fork {\n"
	     "\twrite(m0, 0, 4, 0x31)\n"
	     "}\n"
	     "madvise(m0, 0, 4, MADV_REMOVE)\n"
	     "join\n"
	     "write(m0, 0, 4, 0x32)\n"
	     "thread {\n"
	     "\twrite(m1, 0, 4, 0x33)\n"
	     "}\n"
	     "madvise(m0, 0, 4, MADV_REMOVE)\n"
	     "join\n");
	ok(3);
	mmf_shadow_group_begin(sh, &prog, 3, 7);
	mmf_shadow_forked(sh, &prog, 3, 3);
	done(sh, 6);
	mmf_shadow_group_end(sh);
	UNKNOWN(sh, pg(0, 0));
	/* A thread writing the memfd through another slot. */
	done(sh, 8);
	EXPECT(sh, pg(1, 0), word(0x32, 0, 0));
	mmf_shadow_group_begin(sh, &prog, 9, 13);
	done(sh, 10);
	done(sh, 12);
	mmf_shadow_group_end(sh);
	UNKNOWN(sh, pg(0, 0));
	UNKNOWN(sh, pg(1, 0));
}

/* mlockall() and munlockall() act on every mapping of the address space: a
 * thread calling them races with whatever another one does to any slot (its
 * lock state, and the COW that populating a private file view does).
 */
static void test_lockall_in_thread(void)
{
	load("f0 = memfd(4)\n"
	     "m0 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "m1 = mmap(0, 4, f0, " RW ", MAP_PRIVATE, 0)\n"
	     "m2 = " ANON4
	     "write(m0, 0, 4, 0x41)\n"
	     "thread {\n"
	     "\tmlockall(MCL_CURRENT)\n"
	     "\tmunlockall()\n"
	     "}\n"
	     "write(m0, 0, 4, 0x42)\n"
	     "mlock(m2, 0, 4)\n"
	     "join\n"
	     "madvise(m2, 0, 4, MADV_DONTNEED)\n");
	ok(5);
	mmf_shadow_group_begin(sh, &prog, 5, 11);
	/* The calls ran as 6, 9, 10, 7; the model hears of them as 9, 6, 7, 10. */
	done(sh, 9);
	done(sh, 6);
	done(sh, 7);
	done(sh, 10);
	mmf_shadow_group_end(sh);
	CHECK(may_hold(sh, pg(1, 0), word(0x41, 0, 0)), "m1 was COWed before the 2nd write");
	CHECK(experr(sh, 12) == 0, "m2 was unlocked by munlockall last");
}

/* A child forked while a thread runs copies an address space the thread is
 * changing: the thread's slots are unknown in the child. In the parent only
 * the thread changes them: still predicted.
 */
static void test_child_of_running_thread(void)
{
	struct mmf_shadow *child;

	load("m0 = " ANON4
	     "write(m0, 0, 4, 0x51)\n"
	     "thread {\n"
	     "\twrite(m0, 0, 4, 0x52)\n"
	     "}\n"
	     "c0 = fork {\n"
	     "\tread(m0, 0, 4)\n"
	     "}\n"
	     "join\n");
	ok(2);
	mmf_shadow_group_begin(sh, &prog, 2, 8);
	child = fork_model();
	mmf_shadow_child_of(child, &prog, 2, 5);
	mmf_shadow_forked(sh, &prog, 2, 5);
	UNKNOWN(child, pg(0, 0));
	done(sh, 3);
	EXPECT(sh, pg(0, 0), word(0x52, 0, 0));
	mmf_shadow_group_end(sh);
	mmf_shadow_delete(child);
}

/* madvise(2): MADV_DONTNEED and MADV_FREE fail with EINVAL when the range
 * has locked pages (MADV_DONTNEED_LOCKED is for those); mlock(2), mlock2(2)
 * and munlock(2): ENOMEM when part of the range is not mapped. Only when the
 * model knows every page of the range: a failed mlock stops at a hole after
 * locking what came before it, so lock state is unknown after it.
 */
static void test_acct_errno(void)
{
	load("m0 = " ANON4
	     "mlock(m0, 0, 4)\n"
	     "munlock(m0, 2, 2)\n"
	     "madvise(m0, 0, 4, MADV_DONTNEED)\n"
	     "madvise(m0, 0, 4, MADV_FREE)\n"
	     "madvise(m0, 2, 2, MADV_DONTNEED)\n"
	     "madvise(m0, 0, 4, MADV_DONTNEED_LOCKED)\n"
	     "madvise(m0, 0, 8, MADV_DONTNEED)\n"
	     "mlock(m0, 0, 8)\n"
	     "mlock2(m0, 2, 4, 0)\n"
	     "munlock(m0, 4, 1)\n"
	     "mlock(m0, 0, 4)\n"
	     "munlockall()\n");
	ok(3);
	CHECK(experr(sh, 3) == EINVAL, "DONTNEED over locked pages");
	CHECK(experr(sh, 4) == EINVAL, "FREE over locked pages");
	CHECK(experr(sh, 5) == 0, "DONTNEED over unlocked pages");
	CHECK(experr(sh, 6) == 0, "DONTNEED_LOCKED is allowed");
	CHECK(experr(sh, 7) == 0, "a hole: EINVAL or ENOMEM by VMA order");
	CHECK(experr(sh, 8) == ENOMEM, "mlock over a hole");
	CHECK(experr(sh, 9) == ENOMEM, "mlock2 over a hole");
	CHECK(experr(sh, 10) == ENOMEM, "munlock over a hole");
	CHECK(experr(sh, 11) == 0, "mlock over mapped pages");
	CHECK(mmf_shadow_locked_pages(sh) == 2, "two pages still locked");
	apply(sh, 11, -EAGAIN);
	CHECK(experr(sh, 3) == 0, "lock state unknown after a failed mlock");
	CHECK(experr(sh, 8) == 0, "lock state unknown after a failed mlock");
	CHECK(mmf_shadow_locked_pages(sh) == -1, "lock state unknown after a failed mlock");
	done(sh, 12);
	CHECK(mmf_shadow_locked_pages(sh) == 0, "munlockall unlocks everything");
}

/* No expectation on a range with a lost page: a failed MAP_FIXED mmap may
 * have unmapped it.
 */
static void test_acct_lost(void)
{
	load("m0 = " ANON4
	     "mlock(m0, 0, 4)\n"
	     "m0 = mmap(2, 2, anon, " RW ", MAP_PRIVATE, MAP_FIXED)\n"
	     "madvise(m0, 0, 4, MADV_DONTNEED)\n"
	     "mlock(m0, 0, 8)\n"
	     "madvise(m0, 0, 2, MADV_DONTNEED)\n");
	ok(2);
	step(-ENOMEM);
	CHECK(experr(sh, 3) == 0, "locked range with a lost page");
	CHECK(experr(sh, 4) == 0, "holed range with a lost page");
	CHECK(experr(sh, 5) == EINVAL, "the known part still has expectations");
	CHECK(mmf_shadow_locked_pages(sh) == -1, "VmLck unknown");
}

/* VmLck counts mapped pages of locked VMAs: MAP_LOCKED, mlock, MCL_FUTURE
 * mappings; munmap and munlockall take them off.
 */
static void test_locked_pages(void)
{
	load("m0 = mmap(0, 3, anon, " RW ", MAP_PRIVATE, MAP_LOCKED)\n"
	     "m1 = " ANON4
	     "mlock2(m1, 1, 2, MLOCK_ONFAULT)\n"
	     "munmap(m0, 0, 1)\n"
	     "mlockall(MCL_FUTURE)\n"
	     "m2 = mmap(0, 2, anon, " RW ", MAP_PRIVATE, 0)\n"
	     "munlockall()\n");
	ok(1);
	CHECK(mmf_shadow_locked_pages(sh) == 3, "MAP_LOCKED");
	ok(2);
	CHECK(mmf_shadow_locked_pages(sh) == 5, "mlock2");
	ok(1);
	CHECK(mmf_shadow_locked_pages(sh) == 4, "munmap");
	ok(2);
	CHECK(mmf_shadow_locked_pages(sh) == 6, "MCL_FUTURE");
	ok(1);
	CHECK(mmf_shadow_locked_pages(sh) == 0, "munlockall");
}

/*
 * A write through a page whose mapping the model lost (here: a failed
 * DONTUNMAP resize, which left the shared mapping in place) lands in some
 * object's page; another mapping of the object must not be predicted.
 */
static void test_write_through_lost(void)
{
	load("f1 = memfd(32)\n"
	     "m5 = mmap(0, 32, f1, " RW ", MAP_SHARED, 0)\n"
	     "mremap(m5, 0, 32, m3, 512, 1, MREMAP_MAYMOVE|MREMAP_FIXED|MREMAP_DONTUNMAP)\n"
	     "write(m5, 0, 2, 0x4a)\n"
	     "m6 = mmap(0, 8, f1, " RW ", MAP_SHARED, MAP_POPULATE)\n"
	     "madvise(m5, 4, 2, MADV_REMOVE)\n"
	     "write(m6, 0, 8, 0xec)\n");
	ok(2);
	step(-EINVAL);
	ok(2);
	CHECK(!known(sh, pg(6, 0)) && !known(sh, pg(6, 1)),
	      "object page predicted after a write through a lost page");
	ok(1);
	CHECK(!known(sh, pg(6, 4)), "object page predicted after a hole punched through a lost page");
	ok(1);
	CHECK(known(sh, pg(6, 0)), "a write through a known mapping makes it known again");
}

/* A move whose source runs past its mapping: the target across the gap
 * is not predicted (6.17+ moves several VMAs and leaves gaps alone).
 */
static void test_mremap_source_gap(void)
{
	load("m2 = mmap(576, 256, anon, " RW ", MAP_SHARED, 0)\n"
	     "mremap(m2, 752, 256, m2, 448, 256, MREMAP_MAYMOVE|MREMAP_FIXED|MREMAP_DONTUNMAP)\n");
	ok_all();
	CHECK(known(sh, pg(2, 448)), "moved page not predicted");
	CHECK(!known(sh, pg(2, 608)) && sh->pages[pg(2, 608)].lost,
	      "target across a source gap predicted");
	CHECK(mmf_shadow_locked_pages(sh) < 0, "lock count predicted across a lost page");
}

/* issue 7 track B: userfaultfd. COPY stores what write(tag) would and
 * ZEROPAGE zeros, on the pages done before the first failure (a present
 * page is EEXIST): the result says how many.
 */
static void test_uffd_copy_zeropage(void)
{
	load("m0 = " ANON4
	     "uffd_register(m0, 0, 4, UFFDIO_REGISTER_MODE_MISSING)\n"
	     "write(m0, 0, 1, 0x31)\n"
	     "uffd_copy(m0, 0, 4, 0x32, 0)\n"
	     "uffd_copy(m0, 1, 3, 0x33, 0)\n"
	     "uffd_zeropage(m0, 3, 1, 0)\n");
	ok(3);
	step(-EEXIST);
	EXPECT(sh, pg(0, 0), word(0x31, 0, 0));
	EXPECT(sh, pg(0, 1), 0);
	step(2);
	EXPECT(sh, pg(0, 1), word(0x33, 0, 1));
	EXPECT(sh, pg(0, 2), word(0x33, 0, 2));
	EXPECT(sh, pg(0, 3), 0);
	step(1);
	EXPECT(sh, pg(0, 3), 0);
	EXPECT(sh, pg(0, 0), word(0x31, 0, 0));
}

/* Into a shared file mapping, COPY fills the file: other mappings see it. */
static void test_uffd_copy_shared(void)
{
	load("f0 = memfd(4)\n"
	     "m0 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "m1 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "uffd_register(m0, 0, 4, UFFDIO_REGISTER_MODE_MISSING)\n"
	     "uffd_copy(m0, 0, 4, 0x34, UFFDIO_COPY_MODE_WP)\n");
	ok(4);
	step(2);
	EXPECT(sh, pg(1, 0), word(0x34, 0, 0));
	EXPECT(sh, pg(1, 1), word(0x34, 0, 1));
	EXPECT(sh, pg(1, 2), 0);
}

/* The handler resolves WP faults by clearing WP and minor faults with
 * CONTINUE: registration, write protection, CONTINUE and the faults leave
 * contents as they were, in anonymous and file mappings.
 */
static void test_uffd_content_neutral(void)
{
	load("f0 = memfd(4)\n"
	     "m0 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "m1 = " ANON4
	     "write(m0, 0, 4, 0x35)\n"
	     "write(m1, 0, 4, 0x36)\n"
	     "uffd_create(UFFD_DEV, UFFD_FEATURE_EVENT_FORK|UFFD_FEATURE_MINOR_SHMEM)\n"
	     "uffd_register(m0, 0, 4, UFFDIO_REGISTER_MODE_MINOR|UFFDIO_REGISTER_MODE_WP)\n"
	     "uffd_register(m1, 0, 4, UFFDIO_REGISTER_MODE_MISSING|UFFDIO_REGISTER_MODE_WP)\n"
	     "uffd_writeprotect(m0, 0, 4, UFFDIO_WRITEPROTECT_MODE_WP)\n"
	     "uffd_writeprotect(m1, 0, 4, UFFDIO_WRITEPROTECT_MODE_WP)\n"
	     "uffd_continue(m0, 0, 4, 0)\n"
	     "uffd_unregister(m1, 0, 4)\n");
	ok(5);
	ok_all();
	EXPECT(sh, pg(0, 2), word(0x35, 0, 2));
	EXPECT(sh, pg(1, 2), word(0x36, 1, 2));
}

/*
 * A MISSING fault in a private file mapping gets a zero page of its own,
 * which the file's later writes do not reach: such a page shows the file or
 * zero, for as long as it is mapped. Registering WP alone does not.
 */
static void test_uffd_private_file_missing(void)
{
	load("f0 = memfd(4)\n"
	     "m0 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "m1 = mmap(0, 4, f0, " RW ", MAP_PRIVATE, 0)\n"
	     "uffd_register(m1, 0, 2, UFFDIO_REGISTER_MODE_MISSING)\n"
	     "uffd_register(m1, 2, 2, UFFDIO_REGISTER_MODE_WP)\n"
	     "write(m0, 0, 4, 0x37)\n"
	     "uffd_unregister(m1, 0, 4)\n"
	     "m1 = mmap(0, 4, f0, " RW ", MAP_PRIVATE, MAP_FIXED)\n");
	ok(3);
	step(-EBUSY);
	ok(3);
	EXPECT(sh, pg(1, 0), word(0x37, 0, 0), 0);
	EXPECT(sh, pg(1, 2), word(0x37, 0, 2));
	ok(1);
	EXPECT(sh, pg(1, 0), word(0x37, 0, 0));
}

/* MOVE carries anonymous pages, content and all, and leaves the source
 * empty; a page the model did not see as private anonymous is lost.
 */
static void test_uffd_move(void)
{
	load("m0 = " ANON4 "m1 = " ANON4
	     "f0 = memfd(4)\n"
	     "m2 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "write(m0, 0, 4, 0x38)\n"
	     "uffd_move(m1, 0, 4, m0, 0, 0)\n"
	     "uffd_move(m2, 0, 1, m0, 3, UFFDIO_MOVE_MODE_ALLOW_SRC_HOLES)\n");
	ok(5);
	step(3);
	EXPECT(sh, pg(1, 0), word(0x38, 0, 0));
	EXPECT(sh, pg(1, 2), word(0x38, 0, 2));
	EXPECT(sh, pg(1, 3), 0);
	EXPECT(sh, pg(0, 0), 0);
	EXPECT(sh, pg(0, 3), word(0x38, 0, 3));
	step(1);
	UNKNOWN(sh, pg(2, 0));
	UNKNOWN(sh, pg(0, 3));
}

/* A thread's MOVE races on its source slot as well as its destination. */
static void test_uffd_move_races_on_source(void)
{
	load("m0 = " ANON4 "m1 = " ANON4
	     "write(m0, 0, 4, 0x39)\n"
	     "thread {\n"
	     "\tuffd_move(m1, 0, 4, m0, 0, 0)\n"
	     "}\n"
	     "read(m0, 0, 4)\n"
	     "join\n");
	ok(3);
	mmf_shadow_group_begin(sh, &prog, 3, 7);
	UNKNOWN(sh, pg(0, 0));
}

/* POISON keeps content but marks the pages; a zap removes the markers. */
static void test_uffd_poison(void)
{
	load("m0 = " ANON4
	     "uffd_poison(m0, 0, 4, 0)\n"
	     "madvise(m0, 0, 1, MADV_DONTNEED)\n");
	ok(1);
	step(2);
	CHECK(sh->pages[pg(0, 1)].poison && !sh->pages[pg(0, 2)].poison, "poison on the pages done");
	EXPECT(sh, pg(0, 1), 0);
	ok(1);
	CHECK(!sh->pages[pg(0, 0)].poison && sh->pages[pg(0, 1)].poison, "DONTNEED zaps the marker");
}

static const struct tap_test tests[] = {
	TAP_TEST(test_write_then_read),
	TAP_TEST(test_unmapped),
	TAP_TEST(test_dontneed_private_anon),
	TAP_TEST(test_dontneed_shared),
	TAP_TEST(test_dontneed_private_file),
	TAP_TEST(test_madv_free),
	TAP_TEST(test_madv_remove),
	TAP_TEST(test_wipeonfork),
	TAP_TEST(test_dontfork),
	TAP_TEST(test_fork_lost_page),
	TAP_TEST(test_content_neutral),
	TAP_TEST(test_mremap_move),
	TAP_TEST(test_mremap_dontunmap),
	TAP_TEST(test_mremap_resize),
	TAP_TEST(test_mremap_grow_inherits),
	TAP_TEST(test_mremap_failed),
	TAP_TEST(test_mmap_failed),
	TAP_TEST(test_private_file_view),
	TAP_TEST(test_private_file_populate),
	TAP_TEST(test_mprotect_locked_cow),
	TAP_TEST(test_file_recreate),
	TAP_TEST(test_vset_overflow),
	TAP_TEST(test_thread_contested_slot),
	TAP_TEST(test_fork_private_vs_shared),
	TAP_TEST(test_forked_loses_child_objects),
	TAP_TEST(test_remove_raced),
	TAP_TEST(test_lockall_in_thread),
	TAP_TEST(test_child_of_running_thread),
	TAP_TEST(test_uffd_copy_zeropage),
	TAP_TEST(test_uffd_copy_shared),
	TAP_TEST(test_uffd_content_neutral),
	TAP_TEST(test_uffd_private_file_missing),
	TAP_TEST(test_uffd_move),
	TAP_TEST(test_uffd_move_races_on_source),
	TAP_TEST(test_uffd_poison),
	TAP_TEST(test_acct_errno),
	TAP_TEST(test_acct_lost),
	TAP_TEST(test_locked_pages),
	TAP_TEST(test_write_through_lost),
	TAP_TEST(test_mremap_source_gap),
};

int main(void)
{
	int rc = tap_run(tests);

	mmf_shadow_delete(sh);
	return rc;
}
