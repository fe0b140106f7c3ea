// SPDX-License-Identifier: GPL-2.0
/*
 * The accounting oracle's comparisons (oracle/accounting.c), on chosen
 * readings: a counter is reported only when every reading after the
 * program is above its tolerance and the readings agree; status and
 * smaps_rollup may differ by the per-CPU batches, VmLck not at all.
 */
#include <string.h>

#include "oracle/accounting.h"
#include "tap.h"
#include "util/util.h"

#define STARTS(buf, lit)	((buf) && !strncmp((buf), lit, sizeof(lit) - 1))

static struct mmf_acct_sys reading(long mlocked, long unevictable)
{
	struct mmf_acct_sys s = { .ok = true };

	s.kb[MMF_ACCT_MLOCKED] = mlocked;
	s.kb[MMF_ACCT_UNEVICTABLE] = unevictable;
	return s;
}

static void test_sys(void)
{
	struct mmf_acct_sys before = reading(1000, 500000), after[5];
	struct strbuf sb;

	/* Within tolerance: nothing, and no rereads needed. */
	after[0] = reading(1000 + 1024, 500000 - 9000);
	CHECK(!mmf_acct_sys_suspect(&before, &after[0]), "Mlocked +1 MiB is within tolerance");
	mmf_sb_init(&sb);
	CHECK(mmf_acct_sys_compare(&before, after, 1, &sb) == 0, "no report: %s", sb.buf ?: "");
	/* A stable leak of 4 MiB: one report, the amount in the body only. */
	for (int i = 0; i < 5; i++)
		after[i] = reading(1000 + 4096, 500000 + 100 * i);
	CHECK(mmf_acct_sys_suspect(&before, &after[0]), "Mlocked +4 MiB is suspect");
	CHECK(mmf_acct_sys_compare(&before, after, 5, &sb) == 1, "one report");
	CHECK(STARTS(sb.buf, "ACCOUNTING: Mlocked grew after the program exited\n"),
	      "title: %s", sb.buf);
	CHECK(strstr(sb.buf, "grew by 4096 kB"), "amount in the body: %s", sb.buf);
	mmf_sb_free(&sb);
	/* Gone in a later reading (another process's lock): nothing. */
	after[3] = reading(1000 + 100, 500000);
	mmf_sb_init(&sb);
	CHECK(mmf_acct_sys_compare(&before, after, 5, &sb) == 0, "transient: %s", sb.buf ?: "");
	/* Above tolerance but moving (a busy machine): cannot tell. */
	for (int i = 0; i < 5; i++)
		after[i] = reading(1000, 500000 + 20000 + 4000 * i);
	CHECK(mmf_acct_sys_compare(&before, after, 5, &sb) == 0, "unstable: %s", sb.buf ?: "");
	/* Another process locked 16 MiB meanwhile: its VmLck is taken off. */
	for (int i = 0; i < 5; i++) {
		after[i] = reading(1000 + 16384, 500000 + 16384);
		after[i].others_kb = 16384;
	}
	CHECK(!mmf_acct_sys_suspect(&before, &after[0]), "another process's lock is no growth");
	CHECK(mmf_acct_sys_compare(&before, after, 5, &sb) == 0, "others: %s", sb.buf ?: "");
	/* ... and unlocked it with our leak of 4 MiB still there: found. */
	before.others_kb = 16384;
	for (int i = 0; i < 5; i++)
		after[i] = reading(1000 + 4096 - 16384, 500000 - 16384);
	CHECK(mmf_acct_sys_compare(&before, after, 5, &sb) == 1, "leak under others' unlock");
	CHECK(strstr(sb.buf, "grew by 4096 kB") &&
	      strstr(sb.buf, "VmLck 16384 kB before, 0 kB after"), "amounts: %s", sb.buf);
	mmf_sb_free(&sb);
	mmf_sb_init(&sb);
	/* A reading that moved while it was taken spoils the verdict. */
	for (int i = 0; i < 5; i++)
		after[i] = reading(1000 + 4096 - 16384, 500000 - 16384);
	after[2].ok = false;
	CHECK(mmf_acct_sys_compare(&before, after, 5, &sb) == 0, "moving: %s", sb.buf ?: "");
	before.others_kb = 0;
	/* Unreadable before: nothing. */
	before.ok = false;
	after[0] = reading(90000, 900000);
	CHECK(!mmf_acct_sys_suspect(&before, &after[0]), "no baseline, no suspicion");
	CHECK(mmf_acct_sys_compare(&before, after, 1, &sb) == 0, "no baseline: %s", sb.buf ?: "");
	mmf_sb_free(&sb);
}

static void test_proc(void)
{
	struct mmf_shadow *sh = mmf_shadow_new(1);
	struct mmf_acct_proc p = { .rss_anon = 4000, .vm_swap = 800, .vm_lck = 0,
				   .anonymous = 4000 - 256, .swap = 800 + 256 };
	struct strbuf sb;

	mmf_sb_init(&sb);
	/* Two CPUs: batch 32 pages each, 256 kB with 4 KiB pages. */
	CHECK(mmf_acct_proc_compare(&p, sh, 4096, 2, 0, &sb) == 0, "within batches: %s",
	      sb.buf ?: "");
	p.anonymous = 4000 - 260;
	CHECK(mmf_acct_proc_compare(&p, sh, 4096, 2, 0, &sb) == 1, "RssAnon apart");
	CHECK(STARTS(sb.buf, "ACCOUNTING: RssAnon differs from smaps_rollup Anonymous at the"
		      " end of the program\n"), "title: %s", sb.buf);
	mmf_sb_free(&sb);
	mmf_sb_init(&sb);
	p.anonymous = 4000;
	p.swap = 800 + 8192;
	CHECK(mmf_acct_proc_compare(&p, sh, 4096, 2, 0, &sb) == 1, "VmSwap apart");
	/* Shmem in the arena: smaps_rollup counts its swap too, no check. */
	sh->pages[0].mapped = 1;
	sh->pages[0].obj1 = 1;
	mmf_sb_free(&sb);
	mmf_sb_init(&sb);
	CHECK(mmf_acct_proc_compare(&p, sh, 4096, 2, 0, &sb) == 0, "shmem: %s", sb.buf ?: "");
	/* VmLck: base plus the model's locked pages, exactly. */
	sh->pages[0].locked = 1;
	p.vm_lck = 100 + 4;
	CHECK(mmf_acct_proc_compare(&p, sh, 4096, 2, 100, &sb) == 0, "VmLck right: %s",
	      sb.buf ?: "");
	p.vm_lck = 100 + 8;
	CHECK(mmf_acct_proc_compare(&p, sh, 4096, 2, 100, &sb) == 1, "VmLck off by a page");
	CHECK(strstr(sb.buf, "ACCOUNTING: VmLck differs from mlocked pages\n"), "%s", sb.buf);
	/* Unknown base (no lock call): no VmLck check. */
	mmf_sb_free(&sb);
	mmf_sb_init(&sb);
	CHECK(mmf_acct_proc_compare(&p, sh, 4096, 2, -2, &sb) == 0, "no base: %s", sb.buf ?: "");
	mmf_sb_free(&sb);
	mmf_shadow_delete(sh);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_sys),
	TAP_TEST(test_proc),
};

int main(void)
{
	return tap_run(tests);
}
