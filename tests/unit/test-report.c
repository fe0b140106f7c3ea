// SPDX-License-Identifier: GPL-2.0
/* Focused cases for the kernel report parser (report/report.h). */
#include <pthread.h>
#include <string.h>

#include "report/internal.h"
#include "report/report.h"
#include "tap.h"
#include "util/util.h"

#define CHECK_STR(got, want)						\
	CHECK((got) && !strcmp((got), (want)), "got '%s' want '%s'",	\
	      (got) ? (got) : "(null)", (want))

static int parse(const char *log, struct mmf_report **reps)
{
	return mmf_report_parse(log, strlen(log), reps);
}

static bool has_alt(const struct mmf_report *r, const char *alt)
{
	for (int i = 0; i < r->nr_alt; i++)
		if (!strcmp(r->alt_titles[i], alt))
			return true;
	return false;
}

static void compile_all(const char *const *res)
{
	for (; res && *res; res++)
		if (strcmp(*res, STACK))
			rx_find(*res, "", 0, 0, NULL);
}

/* Rows are compiled when first used: a typo in a rare one must fail here. */
static void test_table_compiles(void)
{
	for (size_t k = 0; k < mmf_nr_oopses; k++) {
		const struct oops *o = &mmf_oopses[k];

		compile_all((const char *const[]){ o->line_re, NULL });
		compile_all(o->ignore);
		for (const struct oops_fmt *f = o->fmts; f->title; f++) {
			compile_all((const char *const[]){ f->title, NULL });
			compile_all(f->report);
			if (!f->stack)
				continue;
			compile_all(f->stack->parts);
			compile_all(f->stack->parts2);
			compile_all((const char *const[]){ f->stack->skip, NULL });
		}
	}
	compile_all(mmf_mid_report);
	compile_all(mmf_stack_dumpers);
	compile_all(mmf_stack_starts);
	CHECK(mmf_nr_oopses > 0, "empty table");
}

static void test_empty(void)
{
	struct mmf_report *reps = (void *)1;

	CHECK(mmf_report_parse("", 0, &reps) == 0, "reports in empty input");
	CHECK(reps == NULL, "no array for no report");
	CHECK(mmf_report_parse(NULL, 0, &reps) == 0, "reports in no input");
	CHECK(parse("[    0.000000] Linux version 6.9.0\n[    1.0] ok\n", &reps) == 0,
	      "reports in a clean boot log");
	mmf_reports_free(reps, 0);
}

static void test_data_corruption(void)
{
	static const char log[] =
		"mmfuzz: DATA CORRUPTION: page changed behind MADV_FREE\n"
		"[   12.345678][  T100] DATA CORRUPTION: zero page in anon mapping "
		"at 0x7f0000001000\r\n"
		"ACCOUNTING: RssAnon 4096 kB above expected 0 kB\n";
	struct mmf_report *reps;
	int n = parse(log, &reps);

	CHECK(n == 3, "%d reports", n);
	CHECK_STR(reps[0].title, "DATA CORRUPTION: page changed behind MADV_FREE");
	CHECK_STR(reps[0].type, "DATA_CORRUPTION");
	CHECK(!reps[0].frame, "frame '%s' in a free-text title", reps[0].frame);
	CHECK(!reps[0].corrupted, "no stack is expected");
	CHECK(reps[0].start == 0, "start %zu", reps[0].start);
	CHECK(reps[0].end == reps[1].start, "end %zu", reps[0].end);
	/* addresses and numbers vary between runs of one bug */
	CHECK_STR(reps[1].title, "DATA CORRUPTION: zero page in anon mapping at ADDR");
	CHECK(!reps[1].frame, "frame '%s'", reps[1].frame);
	CHECK_STR(reps[2].title, "ACCOUNTING: RssAnon NUM kB above expected NUM kB");
	CHECK_STR(reps[2].type, "ACCOUNTING");
	CHECK(reps[2].end == sizeof(log) - 1, "end %zu", reps[2].end);
	mmf_reports_free(reps, n);
}

/* KASAN with caller ids, another task's line in the middle, "? " frames */
static const char kasan_log[] =
	"[   35.040000][ T5851] swap_info: swapon done\n"
	"[   35.046212][ T5851] ===============================================\n"
	"[   35.047479][ T5851] BUG: KASAN: slab-use-after-free in "
	"swap_cache_free_entries+0x4b/0x3a0\n"
	"[   35.048000][ T1234] audit: type=1400 audit(1.2:3): avc:  denied  { map }\n"
	"[   35.048773][ T5851] Read of size 8 at addr ffff88806acbf2bb by task kswapd0/5851\n"
	"[   35.049896][ T5851] \n"
	"[   35.050252][ T5851] CPU: 0 PID: 5851 Comm: kswapd0 Not tainted 6.9.0 #4\n"
	"[   35.052773][ T5851] Call Trace:\n"
	"[   35.053287][ T5851]  <TASK>\n"
	"[   35.053968][ T5851]  dump_stack_lvl+0x1db/0x2d0\n"
	"[   35.054853][ T5851]  ? swap_cache_free_entries+0x4b/0x3a0\n"
	"[   35.055746][ T5851]  print_report+0xc1/0x5e0\n"
	"[   35.058410][ T5851]  kasan_report+0x1b/0x40\n"
	"[   35.060033][ T5851]  swap_cache_free_entries+0x4b/0x3a0\n"
	"[   35.061789][ T5851]  swapcache_free_entries+0x153/0x300\n"
	"[   35.062700][ T1234] audit: type=1400 audit(1.2:4): avc:  denied  { map }\n"
	"[   35.062674][ T5851]  free_swap_slot+0x16/0x3cd\n"
	"[   35.063560][ T5851]  kswapd+0x129/0x937\n"
	"[   35.063561][ T5851]  kthread+0x2f/0x80\n"
	"[   35.063562][ T5851]  ret_from_fork+0x1f/0x30\n"
	"[   35.072650][ T5851]  </TASK>\n"
	"[   35.106231][ T5851] \n"
	"[   35.106232][ T5851] Allocated by task 5851:\n"
	"[   35.106880][ T5851]  kasan_save_stack+0x45/0xd0\n"
	"[   35.108851][ T5851]  swap_cache_alloc+0x5a/0xc3\n"
	"[   35.109688][ T5851]  add_to_swap+0x16/0x3cd\n"
	"[   35.115816][ T5851] Freed by task 5584:\n"
	"[   35.116379][ T5851]  kasan_save_stack+0x45/0xd0\n"
	"[   35.118302][ T5851]  kfree+0xcf/0x230\n"
	"[   35.118843][ T5851]  swap_cache_release+0x5e9/0x53c0\n"
	"[   35.132685][ T5851] ===============================================\n";

static void test_kasan_task_ids(void)
{
	struct mmf_report *reps;
	int n = parse(kasan_log, &reps);

	CHECK(n == 1, "%d reports", n);
	CHECK_STR(reps[0].title, "KASAN: slab-use-after-free Read in swap_cache_free_entries");
	CHECK_STR(reps[0].type, "KASAN-USE-AFTER-FREE-READ");
	CHECK_STR(reps[0].frame, "swap_cache_free_entries");
	CHECK(has_alt(&reps[0], "bad-access in swap_cache_free_entries"), "alt title");
	CHECK(!reps[0].corrupted, "complete report marked corrupted");
	CHECK(!strstr(reps[0].text, "audit:"), "another task's line in the text");
	CHECK(!strstr(reps[0].text, "? swap_cache"), "questionable frame in the text");
	CHECK(!strstr(reps[0].text, "[ T5851]"), "caller id left in the text");
	CHECK(strstr(reps[0].text, "swap_info: swapon done\n"), "context line missing");
	CHECK(strstr(reps[0].text, "\n swapcache_free_entries+0x153/0x300\n"), "frame missing");
	CHECK(reps[0].start == (size_t)(strstr(kasan_log, "[   35.047479]") - kasan_log),
	      "start %zu", reps[0].start);
	CHECK(reps[0].end == sizeof(kasan_log) - 1, "end %zu", reps[0].end);
	mmf_reports_free(reps, n);
}

static void test_arm64_null_deref(void)
{
	static const char log[] =
		"[  100.123456] Unable to handle kernel NULL pointer dereference at virtual "
		"address 0000000000000008\n"
		"[  100.123457] Mem abort info:\n"
		"[  100.123458]   ESR = 0x0000000096000006\n"
		"[  100.123459]   EC = 0x25: DABT (current EL), IL = 32 bits\n"
		"[  100.123464] Internal error: Oops: 0000000096000006 [#1] PREEMPT SMP\n"
		"[  100.123465] Modules linked in:\n"
		"[  100.123466] CPU: 1 PID: 321 Comm: mmfuzz Not tainted 6.6.0 #1\n"
		"[  100.123467] Hardware name: linux,dummy-virt (DT)\n"
		"[  100.123468] pstate: 60400005 (nZCv daif +PAN -UAO -TCO -DIT -SSBS BTYPE=--)\n"
		"[  100.123469] pc : folio_mapping+0x10/0x80\n"
		"[  100.123470] lr : page_mapping+0x1c/0x30\n"
		"[  100.123471] sp : ffff80008263bb70\n"
		"[  100.123473] Call trace:\n"
		"[  100.123474]  folio_mapping+0x10/0x80\n"
		"[  100.123475]  page_mapping+0x1c/0x30\n"
		"[  100.123476]  madvise_cold_or_pageout_pte_range+0x2c8/0x7a0\n"
		"[  100.123477]  walk_pgd_range+0x3a4/0x7e8\n"
		"[  100.123478]  __arm64_sys_madvise+0x1b0/0x2f0\n"
		"[  100.123479]  invoke_syscall+0x48/0x114\n"
		"[  100.123482]  el0_svc+0x40/0xe8\n"
		"[  100.123484]  el0t_64_sync+0x190/0x194\n"
		"[  100.123485] Code: d503201f 9100c3fd 91012041 f9400400 (f9400400)\n"
		"[  100.123486] ---[ end trace 0000000000000000 ]---\n"
		"[  100.123487] Kernel panic - not syncing: Oops: Fatal exception\n";
	struct mmf_report *reps;
	int n = parse(log, &reps);

	/* "Internal error:" and the panic belong to the report they follow */
	CHECK(n == 1, "%d reports", n);
	CHECK_STR(reps[0].title,
		  "BUG: unable to handle kernel NULL pointer dereference in folio_mapping");
	CHECK_STR(reps[0].type, "NULL-POINTER-DEREFERENCE");
	CHECK_STR(reps[0].frame, "folio_mapping");
	CHECK(has_alt(&reps[0], "bad-access in folio_mapping"), "alt title");
	CHECK(!reps[0].corrupted, "complete report marked corrupted");
	mmf_reports_free(reps, n);
}

static const char x86_fault[] =
	"[  200.100000] BUG: unable to handle page fault for address: ffffea0004000008\n"
	"[  200.100001] #PF: supervisor read access in kernel mode\n"
	"[  200.100002] #PF: error_code(0x0000) - not-present page\n"
	"[  200.100003] PGD 13ffcf067 P4D 13ffcf067 PUD 13ffce067 PMD 0 \n"
	"[  200.100004] Oops: 0000 [#1] PREEMPT SMP KASAN NOPTI\n"
	"[  200.100005] CPU: 1 PID: 4242 Comm: mmfuzz Not tainted 6.9.0 #1\n"
	"[  200.100006] RIP: 0010:zap_pte_range+0x3e1/0x1b40\n"
	"[  200.100007] Code: 48 8b 0d 61 84 2a 00 31 d2 <48> 8b 07 c3\n"
	"[  200.100008] RSP: 0018:ffffc90003e7f8e0 EFLAGS: 00010246\n"
	"[  200.100009] Call Trace:\n"
	"[  200.100010]  <TASK>\n"
	"[  200.100011]  ? __die+0x1f/0x70\n"
	"[  200.100012]  ? page_fault_oops+0x15a/0x2d0\n"
	"[  200.100013]  zap_pmd_range.isra.0+0x1c4/0x360\n"
	"[  200.100014]  unmap_page_range+0x2c3/0x4c0\n"
	"[  200.100015]  unmap_vmas+0x1b5/0x2d0\n"
	"[  200.100016]  exit_mmap+0x10f/0x3e0\n"
	"[  200.100017]  __mmput+0x48/0x140\n"
	"[  200.100018]  do_exit+0x2f4/0xb60\n"
	"[  200.100019]  </TASK>\n"
	"[  200.100020] Modules linked in:\n";

static void test_x86_paging(void)
{
	struct mmf_report *reps;
	int n = parse(x86_fault, &reps);

	CHECK(n == 1, "%d reports", n);
	CHECK_STR(reps[0].title, "BUG: unable to handle kernel paging request in zap_pte_range");
	CHECK_STR(reps[0].type, "MEMORY_SAFETY_BUG");
	CHECK(!reps[0].corrupted, "complete report marked corrupted");
	mmf_reports_free(reps, n);
}

/* The same report cut by the end of the output in the middle of its stack. */
static void test_truncated(void)
{
	const char *cut = strstr(x86_fault, "[  200.100015]");
	struct mmf_report *reps;
	int n = mmf_report_parse(x86_fault, cut - x86_fault, &reps);

	CHECK(n == 1, "%d reports", n);
	CHECK_STR(reps[0].title, "BUG: unable to handle kernel paging request in zap_pte_range");
	CHECK(reps[0].corrupted, "truncated report not marked corrupted");
	CHECK(reps[0].end == (size_t)(cut - x86_fault), "end %zu", reps[0].end);
	mmf_reports_free(reps, n);

	/* cut right after the stack header: no frame at all */
	cut = strstr(kasan_log, "[   35.053968]");
	n = mmf_report_parse(kasan_log, cut - kasan_log, &reps);
	CHECK(n == 1, "%d reports", n);
	CHECK(reps[0].corrupted, "report without frames not marked corrupted");
	mmf_reports_free(reps, n);
}

static void test_two_reports(void)
{
	static const char log[] =
		"[   10.000000] ------------[ cut here ]------------\n"
		"[   10.000001] WARNING: CPU: 0 PID: 42 at mm/memory.c:1234 "
		"zap_pte_range+0x123/0x456\n"
		"[   10.000002] Modules linked in:\n"
		"[   10.000003] CPU: 0 PID: 42 Comm: mmfuzz Not tainted 6.9.0 #1\n"
		"[   10.000004] RIP: 0010:zap_pte_range+0x123/0x456\n"
		"[   10.000005] Call Trace:\n"
		"[   10.000006]  <TASK>\n"
		"[   10.000007]  unmap_page_range+0x2c3/0x4c0\n"
		"[   10.000008]  unmap_vmas+0x1b5/0x2d0\n"
		"[   10.000009]  </TASK>\n"
		"[   10.000010] ---[ end trace 0000000000000000 ]---\n"
		"[   11.000000] BUG: Bad rss-counter state mm:ffff888012345678 "
		"type:MM_ANONPAGES val:1\n"
		"[   11.000001] BUG: non-zero pgtables_bytes on freeing mm: 4096\n";
	struct mmf_report *reps;
	int n = parse(log, &reps);

	CHECK(n == 3, "%d reports", n);
	CHECK_STR(reps[0].title, "WARNING in zap_pte_range");
	CHECK_STR(reps[0].type, "WARNING");
	CHECK(!reps[0].corrupted, "complete WARNING marked corrupted");
	CHECK(!strstr(reps[0].text, "rss-counter"), "next report in the first one's text");
	CHECK(reps[0].end == reps[1].start, "end %zu start %zu", reps[0].end, reps[1].start);
	CHECK(reps[1].start == (size_t)(strstr(log, "[   11.000000]") - log),
	      "start %zu", reps[1].start);
	CHECK_STR(reps[1].title, "BUG: Bad rss-counter state");
	CHECK(!reps[1].corrupted, "Bad rss-counter state has no stack to miss");
	CHECK_STR(reps[2].title, "BUG: non-zero pgtables_bytes on freeing mm");
	mmf_reports_free(reps, n);
}

/* panic_on_warn: the panic and its repeated stack are part of the WARNING */
static void test_panic_on_warn(void)
{
	static const char log[] =
		"<4>[   10.000001] WARNING: CPU: 0 PID: 42 at mm/gup.c:100 try_grab_folio+0x1/0x2\n"
		"<4>[   10.000002] Modules linked in:\n"
		"<0>[   10.000003] Kernel panic - not syncing: kernel: panic_on_warn set ...\n"
		"<4>[   10.000004] CPU: 0 PID: 42 Comm: mmfuzz Not tainted 6.9.0 #1\n"
		"<4>[   10.000005] Call Trace:\n"
		"<4>[   10.000006]  <TASK>\n"
		"<4>[   10.000007]  dump_stack_lvl+0x2c3/0x4c0\n"
		"<4>[   10.000007]  panic+0x2c3/0x4c0\n"
		"<4>[   10.000007]  __warn+0x2c3/0x4c0\n"
		"<4>[   10.000007]  report_bug+0x2c3/0x4c0\n"
		"<4>[   10.000007]  handle_bug+0x2c3/0x4c0\n"
		"<4>[   10.000007]  exc_invalid_op+0x2c3/0x4c0\n"
		"<4>[   10.000007]  asm_exc_invalid_op+0x2c3/0x4c0\n"
		"<4>[   10.000009] RIP: 0010:try_grab_folio+0x1/0x2\n"
		"<4>[   10.000009]  follow_page_pte+0x1b5/0x2d0\n"
		"<4>[   10.000009]  __get_user_pages+0x1b5/0x2d0\n"
		"<4>[   10.000009]  </TASK>\n";
	struct mmf_report *reps;
	int n = parse(log, &reps);

	CHECK(n == 1, "%d reports", n);
	CHECK_STR(reps[0].title, "WARNING in try_grab_folio");
	CHECK(!strstr(reps[0].text, "<4>"), "syslog level left in the text");
	mmf_reports_free(reps, n);
}

static void test_mm_kinds(void)
{
	static const char bad_page[] =
		"[  360.589544] BUG: Bad page state in process mmfuzz  pfn:7071f\n"
		"[  360.597807] page: refcount:0 mapcount:1 mapping:0000000000000000 "
		"index:0x0 pfn:0x7071f\n"
		"[  360.633711] page dumped because: nonzero mapcount\n"
		"[  360.811056] Call Trace:\n"
		"[  360.814367]  <TASK>\n"
		"[  360.817327]  dump_stack_lvl+0x241/0x360\n"
		"[  360.832477]  bad_page+0x18e/0x200\n"
		"[  360.836687]  free_unref_folios+0xe47/0xea0\n"
		"[  360.836688]  folios_put_refs+0x47/0xea0\n"
		"[  360.836689]  free_pages_and_swap_cache+0x47/0xea0\n"
		"[  360.836690]  tlb_flush_mmu+0x47/0xea0\n"
		"[  360.836691]  unmap_page_range+0x47/0xea0\n"
		"[  360.836692]  </TASK>\n";
	static const char list[] =
		"[    5.000000] list_del corruption, ffff888005a3c010->next is LIST_POISON1 "
		"(dead000000000100)\n"
		"[    5.000001] ------------[ cut here ]------------\n"
		"[    5.000002] kernel BUG at lib/list_debug.c:56!\n"
		"[    5.000003] Oops: invalid opcode: 0000 [#1] PREEMPT SMP KASAN\n"
		"[    5.000004] RIP: 0010:__list_del_entry_valid_or_report+0x7d/0x110\n"
		"[    5.000005] Call Trace:\n"
		"[    5.000006]  <TASK>\n"
		"[    5.000007]  list_del_init+0x1c/0x60\n"
		"[    5.000008]  isolate_lru_folios+0x7c/0x110\n"
		"[    5.000009]  </TASK>\n";
	static const char ptc[] =
		"[    7.000000] kernel BUG at mm/page_table_check.c:82!\n"
		"[    7.000001] Oops: invalid opcode: 0000 [#1] PREEMPT SMP\n"
		"[    7.000002] RIP: 0010:page_table_check_clear+0x10/0x80\n"
		"[    7.000003] Call Trace:\n"
		"[    7.000004]  <TASK>\n"
		"[    7.000005]  __page_table_check_pte_clear+0x1c/0x60\n"
		"[    7.000006]  ptep_get_and_clear_full+0x1c/0x60\n"
		"[    7.000007]  zap_pte_range+0x7c/0x110\n"
		"[    7.000008]  </TASK>\n";
	struct mmf_report *reps;
	int n = parse(bad_page, &reps);

	CHECK(n == 1, "%d reports", n);
	/* no page_owner stack: where the bad page was freed */
	CHECK_STR(reps[0].title, "BUG: Bad page state in tlb_flush_mmu");
	mmf_reports_free(reps, n);

	n = parse(list, &reps);
	CHECK(n == 1, "%d reports", n);
	CHECK_STR(reps[0].title, "BUG: corrupted list in isolate_lru_folios");
	CHECK_STR(reps[0].type, "MEMORY_SAFETY_BUG");
	mmf_reports_free(reps, n);

	n = parse(ptc, &reps);
	CHECK(n == 1, "%d reports", n);
	CHECK_STR(reps[0].title, "BUG: page table check failed in zap_pte_range");
	mmf_reports_free(reps, n);
}

/* Arbitrary bytes around a report: titles stay clean, JSON stays valid. */
static void test_binary_json(void)
{
	static const char log[] =
		"\xff\xfe garbage \x01\n"
		"[    1.0] WARNING: CPU: 0 PID: 1 at mm/slub.c:1 foo+0x1/0x2 \xc3\x28\n"
		"[    1.1] RIP: 0010:foo+0x1/0x2\n"
		"[    1.2] Call Trace:\n"
		"[    1.3]  bar+0x1/0x2 \"quoted\" \\ \t\xe2\x82\xac\n"
		"[    1.4]  baz+0x1/0x2\n"
		"[    1.5]  \0qux+0x1/0x2\n";
	struct mmf_report *reps;
	struct strbuf sb;
	int n = mmf_report_parse(log, sizeof(log) - 1, &reps);

	CHECK(n == 1, "%d reports", n);
	CHECK_STR(reps[0].title, "WARNING in foo");
	CHECK(strstr(reps[0].text, "?qux"), "NUL not replaced");
	sb_init(&sb);
	mmf_report_json(&reps[0], "a\"b", &sb);
	CHECK(strstr(sb.buf, "{\"file\":\"a\\\"b\",\"title\":\"WARNING in foo\","), "%s", sb.buf);
	CHECK(strstr(sb.buf, "\"type\":\"WARNING\",\"frame\":\"foo\",\"corrupted\":false,"),
	      "%s", sb.buf);
	CHECK(strstr(sb.buf, "\\ufffd("), "invalid UTF-8 not replaced: %s", sb.buf);
	CHECK(strstr(sb.buf, "\\\"quoted\\\" \\\\ \\t\xe2\x82\xac\\n"), "escaping: %s", sb.buf);
	CHECK(!strchr(sb.buf, '\n'), "raw newline in JSON");
	sb_free(&sb);
	mmf_reports_free(reps, n);
}

/* Reports past the bounds on one report's length are still found. */
static void test_long_log(void)
{
	struct mmf_report *reps;
	struct strbuf sb;
	int n;

	sb_init(&sb);
	sb_puts(&sb, "[    1.000000] WARNING: CPU: 0 PID: 1 at mm/mmap.c:1 foo+0x1/0x2\n"
		"[    1.000001] RIP: 0010:foo+0x1/0x2\n"
		"[    1.000002] Call Trace:\n"
		"[    1.000003]  bar+0x1/0x2\n");
	for (int i = 0; i < 60000; i++)
		sb_printf(&sb, "[    2.%06d] line %d\n", i, i);
	sb_puts(&sb, "[    3.000000] BUG: Bad rss-counter state mm:000000001234abcd\n");
	n = mmf_report_parse(sb.buf, sb.len, &reps);
	CHECK(n == 2, "%d reports", n);
	CHECK_STR(reps[0].title, "WARNING in foo");
	CHECK(strlen(reps[0].text) < 100000, "report text of %zu bytes", strlen(reps[0].text));
	CHECK_STR(reps[1].title, "BUG: Bad rss-counter state");
	mmf_reports_free(reps, n);
	sb_free(&sb);
}

static void *parse_kasan(void *arg)
{
	for (int i = 0; i < 50; i++) {
		struct mmf_report *reps;
		int n = parse(kasan_log, &reps);
		bool ok = n == 1 && strstr(reps[0].title, "Read in swap_cache_free_entries");

		mmf_reports_free(reps, n);
		if (!ok)
			return arg;
	}
	return NULL;
}

/* The regex cache is shared: parse from several threads at once. */
static void test_threads(void)
{
	pthread_t t[4];

	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		CHECK(!pthread_create(&t[i], NULL, parse_kasan, (void *)1), "pthread_create");
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		void *ret;

		CHECK(!pthread_join(t[i], &ret) && !ret, "thread %zu got a wrong title", i);
	}
}

static const struct tap_test tests[] = {
	TAP_TEST(test_table_compiles),
	TAP_TEST(test_empty),
	TAP_TEST(test_data_corruption),
	TAP_TEST(test_kasan_task_ids),
	TAP_TEST(test_arm64_null_deref),
	TAP_TEST(test_x86_paging),
	TAP_TEST(test_truncated),
	TAP_TEST(test_two_reports),
	TAP_TEST(test_panic_on_warn),
	TAP_TEST(test_mm_kinds),
	TAP_TEST(test_binary_json),
	TAP_TEST(test_long_log),
	TAP_TEST(test_threads),
};

int main(void)
{
	return tap_run(tests);
}
