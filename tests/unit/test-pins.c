// SPDX-License-Identifier: GPL-2.0
/*
 * Shadow rules of the pin calls (oracle/pins.c): what vmsplice'd pipes will
 * return, what io_uring READ_FIXED, O_DIRECT and process_vm_*v write into
 * memory and files, and the race rules for them. As test-shadow.c: a short
 * program, results chosen per statement, the model's predictions checked.
 */
#include <string.h>

#include "model/prog.h"
#include "oracle/shadow.h"
#include "tap.h"
#include "util/util.h"

#define NONCE	0x5eed43
#define RW	"PROT_READ|PROT_WRITE"

static struct mmf_prog prog;
static struct mmf_shadow *sh;
static int next;

static void load(const char *text)
{
	char err[160];

	CHECK(!mmf_prog_parse(text, &prog, err, sizeof(err)), "%s", err);
	if (sh)
		mmf_shadow_delete(sh);
	sh = mmf_shadow_new(NONCE);
	next = 0;
}

/* The next statement returns res (pages done, 0, or -errno). */
static void step(long res)
{
	while (prog.stmts[next].id == MMF_COMMENT)
		next++;
	mmf_shadow_apply(sh, &prog.stmts[next], next, res);
	next++;
}

static int pg(int m, int page)
{
	return m * MMF_SLOT_PAGES + page;
}

static uint64_t word(int tag, int m, int p)
{
	return mmf_shadow_word(sh, tag, pg(m, p));
}

static bool has(const struct mmf_vset *vs, uint64_t v)
{
	for (int i = 0; i < vs->n; i++)
		if (vs->v[i] == v)
			return true;
	return false;
}

static void expect_page(int line, int idx, const uint64_t *v, int n)
{
	struct mmf_vset vs;

	CHECK(mmf_shadow_expect(sh, idx, &vs), "line %d: page %d not predicted", line, idx);
	CHECK(vs.n == n, "line %d: page %d: %d candidates, want %d", line, idx, vs.n, n);
	for (int i = 0; i < n; i++)
		CHECK(has(&vs, v[i]), "line %d: page %d lacks 0x%llx", line, idx,
		      (unsigned long long)v[i]);
}

#define EXPECT(idx, ...)							\
	expect_page(__LINE__, idx, (const uint64_t[]){ __VA_ARGS__ },		\
		    ARRAY_SIZE(((const uint64_t[]){ __VA_ARGS__ })))
#define UNKNOWN(idx)								\
	do {									\
		struct mmf_vset vs_;						\
		CHECK(!mmf_shadow_expect(sh, idx, &vs_), "page %d predicted", idx); \
	} while (0)

/* Entry k of pipe p: exactly the given candidates (n 0: unknown). */
static void pipe_is(int line, int p, int k, const uint64_t *v, int n)
{
	const struct mmf_pipe *pp = &sh->pins.pipes[p];
	const struct mmf_vset *vs;

	CHECK(k < pp->nr, "line %d: pipe %d has %d pages, want more than %d", line, p, pp->nr, k);
	vs = &pp->e[(pp->head + k) % MMF_PIPE_PAGES].v;
	CHECK(vs->n == n, "line %d: pipe %d page %d: %d candidates, want %d", line, p, k, vs->n,
	      n);
	for (int i = 0; i < n; i++)
		CHECK(has(vs, v[i]), "line %d: pipe %d page %d lacks 0x%llx", line, p, k,
		      (unsigned long long)v[i]);
}

#define PIPE(p, k, ...)								\
	pipe_is(__LINE__, p, k, (const uint64_t[]){ __VA_ARGS__ },		\
		ARRAY_SIZE(((const uint64_t[]){ __VA_ARGS__ })))
#define PIPE_UNKNOWN(p, k)	pipe_is(__LINE__, p, k, NULL, 0)

/*
 * A pipe holds a reference to the page: a later write reaches it when the
 * page was exclusive, not after a COW, so the union; once the page left the
 * mapping (munmap, a zap) later writes do not reach it.
 */
static void test_vmsplice_follows_page(void)
{
	load("m0 = mmap(0, 4, anon, " RW ", MAP_PRIVATE, 0)\n"
	     "write(m0, 0, 4, 0x11)\n"
	     "vmsplice(m0, 0, 2, 0)\n"
	     "vmsplice(m0, 2, 2, 1)\n"
	     "write(m0, 0, 4, 0x22)\n"
	     "munmap(m0, 0, 1)\n"
	     "madvise(m0, 2, 1, MADV_DONTNEED)\n"
	     "m0 = mmap(0, 1, anon, " RW ", MAP_PRIVATE, 0)\n"
	     "write(m0, 0, 4, 0x33)\n"
	     "pipe_read(0, 1)\n");
	step(0);
	step(4);
	step(2);
	step(2);
	PIPE(0, 0, word(0x11, 0, 0));
	PIPE(1, 1, word(0x11, 0, 3));
	step(4);
	PIPE(0, 0, word(0x11, 0, 0), word(0x22, 0, 0));
	step(0);
	step(0);
	step(0);
	step(4);
	/* Unmapped, zapped: no longer followed. Still mapped: follows. */
	PIPE(0, 0, word(0x11, 0, 0), word(0x22, 0, 0));
	PIPE(1, 0, word(0x11, 0, 2), word(0x22, 0, 2));
	PIPE(0, 1, word(0x11, 0, 1), word(0x22, 0, 1), word(0x33, 0, 1));
	step(1);
	CHECK(sh->pins.pipes[0].nr == 1, "pipe_read pops one page");
	PIPE(0, 0, word(0x11, 0, 1), word(0x22, 0, 1), word(0x33, 0, 1));
}

/* A vmsplice'd page is followed where mremap takes it; a child starts
 * with empty pipes; threads racing on a pipe leave it unknown.
 */
static void test_vmsplice_mremap_fork_race(void)
{
	load("m0 = mmap(0, 2, anon, " RW ", MAP_PRIVATE, 0)\n"
	     "vmsplice(m0, 0, 2, 0)\n"
	     "mremap(m0, 0, 2, m1, 0, 2, MREMAP_MAYMOVE|MREMAP_FIXED)\n"
	     "write(m1, 0, 1, 0x44)\n"
	     "thread {\n"
	     "\tpipe_read(0, 1)\n"
	     "}\n"
	     "vmsplice(m1, 0, 1, 0)\n"
	     "join\n");
	step(0);
	step(2);
	step(pg(1, 0));
	step(1);
	PIPE(0, 0, 0, word(0x44, 1, 0));
	PIPE(0, 1, 0);
	{
		struct mmf_shadow *c = xmalloc(sizeof(*c));

		memcpy(c, sh, sizeof(*c));
		for (int o = 0; o < MMF_SHADOW_OBJS; o++)
			c->objs[o].pages = NULL;
		mmf_shadow_fork_child(c);
		CHECK(!c->pins.pipes[0].nr, "a child's pipes start empty");
		free(c);
	}
	mmf_shadow_group_begin(sh, &prog, 4, 8);
	PIPE_UNKNOWN(0, 0);
	mmf_shadow_group_end(sh);
}

/*
 * io_uring: registration pins (and COWs private file views); READ_FIXED
 * writes the pinned page exactly, through MADV_FREE (a pinned page is
 * never discarded) and mremap, and not a page mapped after munmap.
 */
static void test_uring_read_fixed(void)
{
	load("f0 = memfd(8)\n"
	     "m1 = mmap(0, 8, f0, " RW ", MAP_SHARED, 0)\n"
	     "write(m1, 0, 8, 0x51)\n"
	     "m0 = mmap(0, 4, anon, " RW ", MAP_PRIVATE, 0)\n"
	     "write(m0, 0, 4, 0x52)\n"
	     "uring_register(m0, 0, 4)\n"
	     "madvise(m0, 0, 4, MADV_FREE)\n"
	     "uring_read_fixed(m0, 0, 2, f0, 4)\n"
	     "mremap(m0, 2, 1, m2, 0, 1, MREMAP_MAYMOVE|MREMAP_FIXED)\n"
	     "munmap(m0, 3, 1)\n"
	     "m0 = mmap(3, 1, anon, " RW ", MAP_PRIVATE, 0)\n"
	     "uring_read_fixed(m0, 2, 2, f0, 0)\n"
	     "uring_write_fixed(m0, 0, 1, f0, 7)\n");
	for (int i = 0; i < 7; i++)
		step(i == 2 ? 8 : i == 4 ? 4 : 0);
	EXPECT(pg(0, 0), word(0x52, 0, 0), 0);
	step(2);
	EXPECT(pg(0, 0), word(0x51, 1, 4));
	EXPECT(pg(0, 1), word(0x51, 1, 5));
	EXPECT(pg(0, 2), word(0x52, 0, 2), 0);
	step(pg(2, 0));
	step(0);
	step(0);
	step(2);
	/* Buffer page 2 moved to m2; buffer page 3 left the mapping. */
	EXPECT(pg(2, 0), word(0x51, 1, 0));
	EXPECT(pg(0, 3), 0);
	step(1);
	struct mmf_vset *f7 = &sh->objs[sh->file_obj[0]].pages[7];

	CHECK(f7->n == 1 && f7->v[0] == word(0x51, 1, 4), "WRITE_FIXED sends the pinned page");
}

/* A private file view is COWed at registration: the file's later changes
 * do not show; a failed READ_FIXED changes nothing.
 */
static void test_uring_register_cows(void)
{
	load("f0 = memfd(4)\n"
	     "m0 = mmap(0, 4, f0, " RW ", MAP_PRIVATE, 0)\n"
	     "m1 = mmap(0, 4, f0, " RW ", MAP_SHARED, 0)\n"
	     "uring_register(m0, 0, 4)\n"
	     "write(m1, 0, 4, 0x61)\n"
	     "uring_read_fixed(m0, 0, 4, f0, 0)\n");
	step(0);
	step(0);
	step(0);
	step(0);
	step(4);
	EXPECT(pg(0, 0), 0);
	step(-14 /* EFAULT */);
	EXPECT(pg(0, 0), 0);
}

/* O_DIRECT: a read stores the file's pages; a write to a file mapped in
 * the arena may leave stale page cache: the union.
 */
static void test_dio(void)
{
	load("f1 = dio_file(8)\n"
	     "m0 = mmap(0, 8, anon, " RW ", MAP_PRIVATE, 0)\n"
	     "write(m0, 0, 8, 0x71)\n"
	     "dio_write(m0, 0, 8, f1, 0)\n"
	     "dio_read(m0, 4, 4, f1, 0)\n"
	     "m1 = mmap(0, 8, f1, PROT_READ, MAP_SHARED, 0)\n"
	     "write(m0, 0, 1, 0x72)\n"
	     "dio_write(m0, 0, 1, f1, 0)\n");
	step(0);
	step(0);
	step(8);
	step(8);
	step(3);
	EXPECT(pg(0, 4), word(0x71, 0, 0));
	EXPECT(pg(0, 6), word(0x71, 0, 2));
	EXPECT(pg(0, 7), word(0x71, 0, 7));
	step(0);
	EXPECT(pg(1, 0), word(0x71, 0, 0));
	step(1);
	step(1);
	EXPECT(pg(1, 0), word(0x71, 0, 0), word(0x72, 0, 0));
}

/* process_vm_*v: a copy within the process; overlapping ranges and another
 * process's pages are unknown; a child written into loses those pages.
 */
static void test_process_vm(void)
{
	load("m0 = mmap(0, 8, anon, " RW ", MAP_PRIVATE, 0)\n"
	     "write(m0, 0, 8, 0x81)\n"
	     "process_vm_writev(m0, 0, 2, self, m0, 4)\n"
	     "process_vm_readv(m0, 0, 2, self, m0, 1)\n"
	     "c1 = fork {\n"
	     "\tread(m0, 0, 8)\n"
	     "}\n"
	     "process_vm_readv(m0, 6, 2, c1, m0, 0)\n"
	     "process_vm_writev(m0, 0, 1, c1, m0, 7)\n"
	     "join\n");
	step(0);
	step(8);
	step(2);
	EXPECT(pg(0, 4), word(0x81, 0, 0));
	EXPECT(pg(0, 5), word(0x81, 0, 1));
	step(2);
	UNKNOWN(pg(0, 0));
	UNKNOWN(pg(0, 1));
	EXPECT(pg(0, 2), word(0x81, 0, 2));
	{
		struct mmf_shadow *c = xmalloc(sizeof(*c));

		memcpy(c, sh, sizeof(*c));
		for (int o = 0; o < MMF_SHADOW_OBJS; o++)
			c->objs[o].pages = NULL;
		mmf_shadow_fork_child(c);
		mmf_shadow_child_of(c, &prog, 4, 4);
		CHECK(!mmf_shadow_expect(c, pg(0, 7), &(struct mmf_vset){ 0 }),
		      "the child's page a process_vm_writev reaches is unknown");
		CHECK(mmf_shadow_expect(c, pg(0, 6), &(struct mmf_vset){ 0 }),
		      "the child's other pages stay predicted");
		free(c);
	}
	next = 7;
	step(2);
	UNKNOWN(pg(0, 6));
	EXPECT(pg(0, 5), word(0x81, 0, 1));
}

static const struct tap_test tests[] = {
	TAP_TEST(test_vmsplice_follows_page),
	TAP_TEST(test_vmsplice_mremap_fork_race),
	TAP_TEST(test_uring_read_fixed),
	TAP_TEST(test_uring_register_cows),
	TAP_TEST(test_dio),
	TAP_TEST(test_process_vm),
};

int main(void)
{
	int rc = tap_run(tests);

	mmf_shadow_delete(sh);
	return rc;
}
