// SPDX-License-Identifier: GPL-2.0
/*
 * What the shadow model keeps of a page beyond its predicted content, for
 * the executor and reports: the UFFDIO_POISON marker and the backing a
 * report names. The predictions themselves are the files of tests/data/shadow/,
 * run by test-shadow-data.c.
 */
#include <string.h>

#include "model/prog.h"
#include "oracle/shadow.h"
#include "tap.h"

#define NONCE	0x5eed42

static struct mmf_prog prog;
static struct mmf_shadow *sh;

static void load(const char *text)
{
	char err[160];

	CHECK(!mmf_prog_parse(text, &prog, err, sizeof(err)), "%s", err);
	if (sh)
		mmf_shadow_delete(sh);
	sh = mmf_shadow_new(NONCE);
}

static void apply(int i, long res)
{
	mmf_shadow_apply(sh, &prog.stmts[i], i, res);
}

/* POISON marks the pages it did (a read there is SIGBUS, not corruption);
 * a zap removes the marker.
 */
static void test_uffd_poison(void)
{
	load("m0 = mmap(0, 4, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
	     "uffd_poison(m0, 0, 4, 0)\n"
	     "madvise(m0, 0, 1, MADV_DONTNEED)\n");
	apply(0, 0);
	apply(1, 2);
	CHECK(sh->pages[1].poison && !sh->pages[2].poison, "poison on the pages done");
	apply(2, 0);
	CHECK(!sh->pages[0].poison && sh->pages[1].poison, "DONTNEED zaps the marker");
}

/* A private /dev/zero mapping is anonymous memory, and reports say so. */
static void test_backing_name(void)
{
	load("f1 = devzero()\n"
	     "m0 = mmap(0, 4, f1, PROT_READ|PROT_WRITE, MAP_SHARED, 0)\n"
	     "m1 = mmap(0, 4, f1, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n");
	for (int i = 0; i < prog.nr; i++)
		apply(i, 0);
	CHECK(!strcmp(mmf_shadow_backing_name(sh, 0), "shared"), "a shared one is an object");
	CHECK(!strcmp(mmf_shadow_backing_name(sh, MMF_SLOT_PAGES), "anon"), "named anon");
}

static const struct tap_test tests[] = {
	TAP_TEST(test_uffd_poison),
	TAP_TEST(test_backing_name),
};

int main(void)
{
	int rc = tap_run(tests);

	mmf_shadow_delete(sh);
	return rc;
}
