// SPDX-License-Identifier: GPL-2.0
/*
 * Shadow model rules of the file calls (oracle/rules/file.c): file pages
 * changed through the descriptor, truncation and hole punching under
 * shared and private mappings, file kinds (/dev/zero, memfd_secret,
 * hugetlb), special mappings, zero pages (tag 0), and what races on a file.
 */
#include <errno.h>
#include <string.h>

#include "model/prog.h"
#include "oracle/acct.h"
#include "oracle/shadow.h"
#include "tap.h"
#include "util/util.h"

#define NONCE	0x5eed42

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

/* Run the next statement with result res; -1000: what success returns. */
static void step(long res)
{
	const struct mmf_stmt *s = &prog.stmts[next];
	int idx, n;

	if (res == -1000) {
		res = 0;
		if (s->id == MMF_WRITE || s->id == MMF_READ || s->id == MMF_SPECIAL_MAP)
			res = mmf_stmt_range(s, &idx, &n) ? n : 0;
		if (s->id == MMF_PWRITE || s->id == MMF_PREAD)
			res = s->args[2];
	}
	mmf_shadow_apply(sh, s, next, res);
	next++;
}

static void ok(int n)
{
	while (n--)
		step(-1000);
}

static uint64_t w(int tag, int idx)
{
	return mmf_shadow_word(sh, tag, idx);
}

static bool expect1(int idx, uint64_t v)
{
	struct mmf_vset vs;

	return mmf_shadow_expect(sh, idx, &vs) && vs.n == 1 && vs.v[0] == v;
}

static bool file1(int f, int pg, uint64_t v)
{
	struct mmf_vset vs;

	return mmf_shadow_expect_file(sh, f, pg, &vs) && vs.n == 1 && vs.v[0] == v;
}

static bool known(int idx)
{
	struct mmf_vset vs;

	return mmf_shadow_expect(sh, idx, &vs);
}

#define M1 MMF_SLOT_PAGES

static void test_zero_tag(void)
{
	load("m0 = mmap(0, 4, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
	     "write(m0, 0, 4, 0x00)\n");
	ok(2);
	CHECK(w(0, 3) == 0, "tag 0 is the zero word");
	CHECK(expect1(3, 0), "a zero page is predicted zero");
}

static void test_pwrite_seen_through_mappings(void)
{
	load("f0 = memfd_create(8, MFD_ALLOW_SEALING)\n"
	     "m0 = mmap(0, 8, f0, PROT_READ|PROT_WRITE, MAP_SHARED, 0)\n"
	     "m1 = mmap(0, 8, f0, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
	     "write(m1, 0, 2, 0x22)\n"
	     "pwrite(f0, 0, 4, 0x33)\n"
	     "pwrite(f0, 4, 4, 0x44)\n");
	ok(5);
	CHECK(expect1(2, mmf_shadow_file_word(sh, 0x33, 2)), "shared view sees pwrite");
	CHECK(expect1(M1 + 2, mmf_shadow_file_word(sh, 0x33, 2)), "private view sees pwrite");
	CHECK(expect1(M1 + 1, w(0x22, M1 + 1)), "a COWed page keeps its copy");
	CHECK(file1(0, 3, mmf_shadow_file_word(sh, 0x33, 3)), "pread expects it");
	/* Stopped after one page: the page it stopped at may be half written. */
	step(1);
	CHECK(file1(0, 4, mmf_shadow_file_word(sh, 0x44, 4)), "the page done");
	CHECK(!known(5), "the page it stopped at");
	CHECK(file1(0, 6, 0), "pages after it untouched");
}

static void test_punch_hole(void)
{
	load("f0 = memfd(8)\n"
	     "m0 = mmap(0, 8, f0, PROT_READ|PROT_WRITE, MAP_SHARED, 0)\n"
	     "write(m0, 0, 8, 0x11)\n"
	     "fallocate(f0, 2, 2, PUNCH_HOLE)\n"
	     "fallocate(f0, 6, 2, PUNCH_HOLE)\n"
	     "fallocate(f0, 0, 8, KEEP_SIZE)\n");
	ok(4);
	CHECK(expect1(2, 0) && expect1(3, 0), "punched pages read zero");
	CHECK(expect1(4, w(0x11, 4)), "the rest stays");
	step(-EPERM);
	{
		struct mmf_vset vs;

		CHECK(mmf_shadow_expect(sh, 6, &vs) && vs.n == 2, "failed punch: old or zero");
	}
	ok(1);
	CHECK(expect1(4, w(0x11, 4)), "allocation keeps content");
}

static void test_truncate_drops_cows(void)
{
	load("f0 = memfd(8)\n"
	     "m0 = mmap(0, 8, f0, PROT_READ|PROT_WRITE, MAP_SHARED, 0)\n"
	     "m1 = mmap(0, 8, f0, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
	     "write(m0, 0, 8, 0x11)\n"
	     "write(m1, 0, 8, 0x22)\n"
	     "ftruncate(f0, 4)\n"
	     "ftruncate(f0, 8)\n");
	ok(7);
	CHECK(expect1(2, w(0x11, 2)), "below the new end the file stays");
	CHECK(expect1(M1 + 2, w(0x22, M1 + 2)), "and so do COWed pages");
	CHECK(expect1(6, 0), "past it the file is zero when it grows again");
	CHECK(expect1(M1 + 6, 0), "COWed copies past it are dropped");
}

static void test_devzero(void)
{
	load("f1 = devzero()\n"
	     "m0 = mmap(0, 4, f1, PROT_READ|PROT_WRITE, MAP_SHARED, 0)\n"
	     "m1 = mmap(0, 4, f1, PROT_READ|PROT_WRITE, MAP_SHARED, 0)\n"
	     "m2 = mmap(0, 4, f1, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
	     "write(m0, 0, 4, 0x11)\n"
	     "write(m2, 0, 4, 0x12)\n");
	ok(6);
	CHECK(expect1(1, w(0x11, 1)), "a shared /dev/zero mapping holds its writes");
	CHECK(expect1(M1 + 1, 0), "another one is a different object");
	CHECK(expect1(2 * M1 + 1, w(0x12, 2 * M1 + 1)), "a private one is anonymous");
	CHECK(strcmp(mmf_shadow_backing_name(sh, 2 * M1), "anon") == 0, "named anon");
}

static void test_secret_lock_unknown(void)
{
	load("f0 = memfd_secret(4)\n"
	     "m0 = mmap(0, 4, f0, PROT_READ|PROT_WRITE, MAP_SHARED, 0)\n"
	     "write(m0, 0, 4, 0x11)\n");
	ok(3);
	CHECK(expect1(0, w(0x11, 0)), "secret memory content is predicted");
	CHECK(mmf_shadow_locked_pages(sh) < 0, "its VmLck is not");
}

static void test_hugetlb_lost(void)
{
	load("f0 = memfd_create(512, MFD_HUGETLB)\n"
	     "m0 = mmap(0, 512, f0, PROT_READ|PROT_WRITE, MAP_SHARED, 0)\n"
	     "write(m0, 0, 4, 0x11)\n"
	     "f0 = memfd_create(8, 0)\n"
	     "m1 = mmap(0, 8, f0, PROT_READ|PROT_WRITE, MAP_SHARED, 0)\n");
	ok(3);
	CHECK(!known(0), "hugetlb pages are not predicted");
	ok(2);
	CHECK(expect1(M1, 0), "a plain memfd in the slot again is");
}

static void test_special_map_lost(void)
{
	load("m0 = mmap(0, 64, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
	     "munmap(m0, 16, 32)\n"
	     "special_map(m0, 16, 32, PERF_RING)\n"
	     "special_map(m0, 16, 32, PERF_RING)\n");
	ok(2);
	step(17);
	CHECK(!known(16) && !known(32), "the kernel's pages are lost");
	CHECK(expect1(0, 0), "pages before stay predicted");
	step(-EEXIST);
	CHECK(expect1(0, 0), "a failed one changes nothing");
}

static void test_file_calls_race(void)
{
	load("f0 = memfd(8)\n"
	     "m0 = mmap(0, 8, f0, PROT_READ|PROT_WRITE, MAP_SHARED, 0)\n"
	     "thread {\n"
	     "\tpwrite(f0, 0, 8, 0x33)\n"
	     "}\n"
	     "read(m0, 0, 8)\n"
	     "join\n");
	ok(2);
	mmf_shadow_group_begin(sh, &prog, 2, 6);
	CHECK(!known(0), "a thread's pwrite races with the mapping's reader");
	{
		struct mmf_vset vs;

		CHECK(!mmf_shadow_expect_file(sh, 0, 0, &vs), "and with pread");
	}
	mmf_shadow_group_end(sh);
}

static void test_content_neutral_c(void)
{
	load("m0 = mmap(0, 4, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
	     "write(m0, 0, 4, 0x11)\n"
	     "cg_move(self, 1)\n"
	     "cg_limit(1, MEMORY_MAX, 8)\n"
	     "cg_reclaim(1, 64)\n"
	     "prctl_merge(1)\n"
	     "ksm_wait(2)\n"
	     "thp_knob(THP_64K, always)\n"
	     "madvise(m0, 0, 4, MADV_MERGEABLE)\n");
	ok(9);
	CHECK(expect1(2, w(0x11, 2)), "cgroups, KSM and knobs keep content");
}

static const struct tap_test tests[] = {
	TAP_TEST(test_zero_tag),
	TAP_TEST(test_pwrite_seen_through_mappings),
	TAP_TEST(test_punch_hole),
	TAP_TEST(test_truncate_drops_cows),
	TAP_TEST(test_devzero),
	TAP_TEST(test_secret_lock_unknown),
	TAP_TEST(test_hugetlb_lost),
	TAP_TEST(test_special_map_lost),
	TAP_TEST(test_file_calls_race),
	TAP_TEST(test_content_neutral_c),
};

int main(void)
{
	int rc = tap_run(tests);

	mmf_shadow_delete(sh);
	return rc;
}
