// SPDX-License-Identifier: GPL-2.0
/*
 * The C reproducer generator: every call kind becomes its raw syscall (or
 * the runtime piece that runs it), the file stands alone, carries the
 * program, and holds what the shadow model predicts: the expected pages
 * of each read, the result each call is assumed to return and how strictly
 * it is checked. The output compiles without a warning (the build's
 * warnings, MMF_REPRO_CC from the Makefile) and carries the arena layouts
 * of model/arena.h; running it is tests/integration/test-csource.sh.
 */
#include <stdio.h>
#include <string.h>

#include "csource/csource.h"
#include "model/arena.h"
#include "model/prog.h"
#include "oracle/shadow.h"
#include "tap.h"
#include "util/util.h"

/* Every call kind, blocks included. */
static const char all_calls[] =
	"# every call, and a comment that tries to end the comment: */\n"
	"f1 = memfd(16)\n"
	"f3 = tmpfile(1024)\n"
	"m0 = mmap(0, 512, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
	"m1 = mmap(16, 16, f1, PROT_READ, MAP_SHARED, MAP_NORESERVE|MAP_POPULATE)\n"
	"write(m0, 0, 512, 0x5a)\n"
	"read(m0, 16, 32)\n"
	"madvise(m0, 0, 512, MADV_PAGEOUT)\n"
	"process_madvise(m0, 0, 512, self, MADV_COLD)\n"
	"mlock(m0, 0, 1)\n"
	"mlock2(m0, 0, 2, MLOCK_ONFAULT)\n"
	"munlock(m0, 0, 1024)\n"
	"mlockall(MCL_CURRENT|MCL_FUTURE)\n"
	"munlockall()\n"
	"mincore(m0, 0, 8)\n"
	"msync(m1, 0, 16, MS_SYNC)\n"
	"mprotect(m0, 0, 4, PROT_READ)\n"
	"mremap(m0, 0, 512, m2, 512, 256, MREMAP_MAYMOVE|MREMAP_FIXED)\n"
	"munmap(m2, 512, 256)\n"
	"swapoff(s3)\n"
	"swapon(s3, 10, SWAP_FLAG_DISCARD)\n"
	"c0 = fork {\n"
	"\tread(m0, 0, 64)\n"
	"}\n"
	"thread {\n"
	"\twrite(m4, 0, 8, 0x11)\n"
	"}\n"
	"process_madvise(m0, 0, 8, c0, MADV_PAGEOUT)\n"
	"join\n"
	"uffd_create(UFFD_DEV, UFFD_FEATURE_EVENT_FORK|UFFD_FEATURE_MOVE)\n"
	"uffd_register(m0, 0, 16, UFFDIO_REGISTER_MODE_MISSING|UFFDIO_REGISTER_MODE_WP)\n"
	"uffd_copy(m0, 0, 4, 0x21, UFFDIO_COPY_MODE_WP)\n"
	"uffd_zeropage(m0, 4, 4, 0)\n"
	"uffd_writeprotect(m0, 0, 8, UFFDIO_WRITEPROTECT_MODE_WP)\n"
	"uffd_continue(m0, 8, 4, 0)\n"
	"uffd_poison(m0, 12, 4, UFFDIO_MODE_DONTWAKE)\n"
	"uffd_move(m0, 16, 8, m3, 0, UFFDIO_MOVE_MODE_ALLOW_SRC_HOLES)\n"
	"uffd_unregister(m0, 0, 16)\n"
	"# the pin calls\n"
	"f2 = dio_file(64)\n"
	"vmsplice(m0, 0, 16, 1)\n"
	"pipe_read(1, 16)\n"
	"uring_register(m0, 0, 64)\n"
	"uring_read_fixed(m0, 0, 8, f1, 0)\n"
	"uring_write_fixed(m0, 8, 8, f2, 4)\n"
	"dio_read(m0, 16, 8, f2, 0)\n"
	"dio_write(m0, 24, 8, f2, 8)\n"
	"process_vm_readv(m0, 32, 8, self, m0, 40)\n"
	"process_vm_writev(m0, 48, 8, c1, m1, 0)\n"
	"cg_move(c0, 2)\n"
	"cg_limit(1, MEMORY_MAX, 8)\n"
	"cg_reclaim(0, 64)\n"
	"f1 = memfd_create(16, MFD_ALLOW_SEALING)\n"
	"f2 = memfd_secret(4)\n"
	"f2 = devzero()\n"
	"memfd_seal(f1, F_SEAL_SHRINK|F_SEAL_FUTURE_WRITE)\n"
	"fallocate(f1, 2, 4, PUNCH_HOLE)\n"
	"ftruncate(f1, 8)\n"
	"pwrite(f1, 0, 4, 0x00)\n"
	"pread(f1, 0, 16)\n"
	"special_map(m5, 0, 9, PERF_RING)\n"
	"prctl_merge(1)\n"
	"ksm_wait(2)\n"
	"thp_knob(THP_64K, always)\n"
	"mbind(m0, 0, 512, MPOL_BIND, 0, MPOL_MF_MOVE|MPOL_MF_STRICT)\n"
	"move_pages(m0, 0, 64, c1, -1)\n"
	"migrate_pages(self, 0, 1)\n"
	"compact_memory()\n"
	"process_madvise_vec(m0, 0, 8, m0, 64, 4, MADV_DONTNEED)\n"
	"join\n"
	"race(4, block1, 0, 2000)\n"
	"thread {\n"
	"\tread(m0, 0, 1)\n"
	"}\n"
	"write(m0, 1, 1, 0x22)\n"
	"join\n"
	"mseal(m0, 0, 8)\n";

/* What the emitted code of each call kind contains. */
static const char *const call_code[MMF_NR_CALLS] = {
	[MMF_MMAP] = "rt_mmap(at(",
	[MMF_MUNMAP] = "syscall(SYS_munmap, at(2, 512), len(256))",
	[MMF_MREMAP] = "rt_mremap(at(",
	[MMF_MPROTECT] = "syscall(SYS_mprotect, at(0, 0), len(4), 0x1 /* PROT_READ */)",
	[MMF_MADVISE] = "syscall(SYS_madvise, at(0, 0), len(512), 21 /* MADV_PAGEOUT */)",
	[MMF_PROCESS_MADVISE] = "rt_process_madvise(pidfds, ",
	[MMF_MLOCK] = "syscall(SYS_mlock, at(0, 0), len(1))",
	[MMF_MLOCK2] = "syscall(SYS_mlock2, at(0, 0), len(2), 0x1 /* MLOCK_ONFAULT */)",
	[MMF_MUNLOCK] = "syscall(SYS_munlock, at(0, 0), len(1024))",
	[MMF_MLOCKALL] = "syscall(SYS_mlockall, 0x3 /* MCL_CURRENT|MCL_FUTURE */)",
	[MMF_MUNLOCKALL] = "syscall(SYS_munlockall)",
	[MMF_WRITE] = "r = fill(0, 0, 512, 0x5a);",
	[MMF_READ] = "r = verify(6, 0, 16, 32, expect_6, 1);",
	[MMF_MINCORE] = "rt_mincore(at(",
	[MMF_MSYNC] = "syscall(SYS_msync, at(1, 0), len(16), 0x4 /* MS_SYNC */)",
	[MMF_MEMFD] = "syscall(SYS_memfd_create, ",
	[MMF_TMPFILE] = "O_TMPFILE",
	[MMF_SWAPOFF] = "rt_swapoff(swaps[3])",
	[MMF_SWAPON] = "rt_swapon(swaps[3], 10, 0x10000 /* SWAP_FLAG_DISCARD */)",
	[MMF_CG_MOVE] = "rt_cg_move(cg_dir(2), kids, 0)",
	[MMF_CG_LIMIT] = "rt_cg_limit(cg_dir(1), \"memory.max\", \"memory.limit_in_bytes\", 8, put_kept)",
	[MMF_CG_RECLAIM] = "rt_cg_reclaim(cg_dir(0), len(64))",
	[MMF_MEMFD_CREATE] = "syscall(SYS_memfd_create, \"mmfuzz\", 0x3)",
	[MMF_MEMFD_SECRET] = "syscall(SYS_memfd_secret, O_CLOEXEC)",
	[MMF_DEVZERO] = "rt_set_file(&files[2], rt_ret(open(\"/dev/zero\"",
	[MMF_MEMFD_SEAL] = "fcntl(files[1], 1033 /* F_ADD_SEALS */, 0x12)",
	[MMF_FALLOCATE] = "syscall(SYS_fallocate, files[1], 0x3, len(2), len(4))",
	[MMF_FTRUNCATE] = "rt_ftruncate(files[1], len(8))",
	[MMF_PWRITE] = "rt_file_pages(files[1], 0, 4, psz, file_word, NULL, &(int){ 0x00 })",
	[MMF_PREAD] = "rt_file_pages(files[1], 0, 16, psz, NULL, NULL, NULL)",
	[MMF_SPECIAL_MAP] = "rt_perf_map(at(5, 0), 9, psz, perf_fd())",
	[MMF_PRCTL_MERGE] = "rt_prctl_merge(1)",
	[MMF_KSM_WAIT] = "rt_ksm_wait(2)",
	[MMF_THP_KNOB] = "hugepages-64kB/enabled\", \"always\")",
	[MMF_FORK] = "r = start_child(0, block_21);",
	[MMF_THREAD] = "r = start_thread(block_24);",
	[MMF_END] = "static void block_24(void)",
	[MMF_JOIN] = "r = join_all();",
	[MMF_RACE] = "race_meet(0, 1);",
	[MMF_UFFD_CREATE] = "rt_uffd_new(&uffd, 1, 0x10002 /* UFFD_FEATURE_EVENT_FORK|UFFD_FEATURE_MOVE */, "
		"psz)",
	[MMF_UFFD_REGISTER] = "rt_uffd_register(&uffd, at(0, 0), len(16), "
		"0x3 /* UFFDIO_REGISTER_MODE_MISSING|UFFDIO_REGISTER_MODE_WP */, psz)",
	[MMF_UFFD_UNREGISTER] = "rt_uffd_unregister(&uffd, at(0, 0), len(16), psz)",
	[MMF_UFFD_COPY] = "rt_uffd_copy(&uffd, at(0, 0), 4, 0x2 /* UFFDIO_COPY_MODE_WP */, psz, copy_word,\n"
		"\t\t\t &(struct copy_src){ 0, 0x21 })",
	[MMF_UFFD_ZEROPAGE] = "rt_uffd_fill(&uffd, RT_UFFDIO_ZEROPAGE, at(0, 4), len(4), 0x0, psz)",
	[MMF_UFFD_WRITEPROTECT] = "rt_uffd_writeprotect(&uffd, at(0, 0), len(8), "
		"0x1 /* UFFDIO_WRITEPROTECT_MODE_WP */, psz)",
	[MMF_UFFD_CONTINUE] = "rt_uffd_fill(&uffd, RT_UFFDIO_CONTINUE, at(0, 8), len(4), 0x0, psz)",
	[MMF_UFFD_POISON] = "rt_uffd_fill(&uffd, RT_UFFDIO_POISON, at(0, 12), len(4), "
		"0x1 /* UFFDIO_MODE_DONTWAKE */, psz)",
	[MMF_UFFD_MOVE] = "rt_uffd_move(&uffd, at(0, 16), at(3, 0), len(8), "
		"0x2 /* UFFDIO_MOVE_MODE_ALLOW_SRC_HOLES */, psz)",
	[MMF_VMSPLICE] = "r = pages(rt_vmsplice(&pins, 1, at(0, 0), len(16), psz));",
	[MMF_PIPE_READ] = "r = pages(rt_pipe_read(&pins, 1, len(16), psz, NULL, NULL));",
	[MMF_URING_REGISTER] = "r = rt_ring_register(&pins, at(0, 0), len(64));",
	[MMF_URING_READ_FIXED] = "r = pages(rt_ring_rw(&pins, 0, files[1], at(0, 0), len(8), len(0)));",
	[MMF_URING_WRITE_FIXED] = "r = pages(rt_ring_rw(&pins, 1, files[2], at(0, 8), len(8), len(4)));",
	[MMF_DIO_FILE] = "rt_set_file(&files[2], rt_ret(open(\"/var/tmp\", O_TMPFILE",
	[MMF_DIO_READ] = "r = pages(rt_dio(0, files[2], at(0, 16), len(8), len(0)));",
	[MMF_DIO_WRITE] = "r = pages(rt_dio(1, files[2], at(0, 24), len(8), len(8)));",
	[MMF_PROCESS_VM_READV] = "r = pages(rt_pvm(kids, pidfds, -1, 0, at(0, 32), at(0, 40), len(8)));",
	[MMF_PROCESS_VM_WRITEV] = "r = pages(rt_pvm(kids, pidfds, 1, 1, at(0, 48), at(1, 0), len(8)));",
	[MMF_MBIND] = "rt_mbind(at(0, 0), len(512), 2 /* MPOL_BIND */, 0, "
		"0x3 /* MPOL_MF_STRICT|MPOL_MF_MOVE */)",
	[MMF_MOVE_PAGES] = "rt_move_pages(rt_target_pid(kids, 1), at(0, 0), 64, psz, -1)",
	[MMF_MIGRATE_PAGES] = "rt_migrate_pages(rt_target_pid(kids, -1), 0, 1)",
	[MMF_COMPACT] = "r = rt_compact();",
	[MMF_MSEAL] = "rt_ret(syscall(SYS_mseal, at(0, 0), len(8), 0))",
	[MMF_PROCESS_MADVISE_VEC] = "pages(rt_process_madvise(pidfds, -1, (struct iovec[]){ "
		"{ at(0, 0), len(8) }, { at(0, 64), len(4) } }, 2, 4 /* MADV_DONTNEED */))",
};

static char *csource(const char *text)
{
	struct mmf_prog p;
	struct strbuf sb;
	char err[128];

	CHECK(!mmf_prog_parse(text, &p, err, sizeof(err)), "parse: %s", err);
	mmf_sb_init(&sb);
	mmf_prog_csource(&p, &sb);
	return mmf_sb_detach(&sb);
}

static void has(const char *c, const char *what)
{
	CHECK(strstr(c, what), "no \"%s\" in the C source", what);
}

static void lacks(const char *c, const char *what)
{
	CHECK(!strstr(c, what), "\"%s\" in the C source", what);
}

/* The runtime pieces (fuzzers/csource/runtime/) are real C, and so is the rest. */
static void compiles(const char *c)
{
	FILE *cc = popen(MMF_REPRO_CC " -fsyntax-only -x c -", "w");

	CHECK(cc, "cannot run %s", MMF_REPRO_CC);
	if (!cc)
		return;
	fputs(c, cc);
	CHECK(pclose(cc) == 0, "%s -fsyntax-only fails on the C source", MMF_REPRO_CC);
}

static void test_every_call(void)
{
	char *c = csource(all_calls), *again = csource(all_calls);

	for (int id = 0; id < MMF_NR_CALLS; id++) {
		CHECK(call_code[id], "call %s has no expected code here", mmf_calls[id].name);
		has(c, call_code[id]);
	}
	has(c, "0x22 /* MAP_PRIVATE|MAP_ANONYMOUS */, -1, 0)");
	has(c, "0xc001 /* MAP_SHARED|MAP_NORESERVE|MAP_POPULATE */, files[1], len(16))");
	has(c, "rt_process_madvise(pidfds, -1, &(struct iovec){ at(0, 0), len(512) }, 1, "
	       "20 /* MADV_COLD */)");
	has(c, "rt_process_madvise(pidfds, 0, &(struct iovec){ at(0, 0), len(8) }, 1, "
	       "21 /* MADV_PAGEOUT */)");
	has(c, "rt_mremap(at(0, 0), len(512), len(256), 0x3 /* MREMAP_MAYMOVE|MREMAP_FIXED */,\n"
	       "\t\t      at(2, 512), 2560, page_index, NULL)");
	/* Standalone: libc headers only, and the program in the comment. */
	lacks(c, "#include \"");
	has(c, "#include <sys/syscall.h>");
	has(c, " *\tm0 = mmap(0, 512, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n");
	has(c, " *\tc0 = fork {\n *\t\tread(m0, 0, 64)\n *\t}\n");
	has(c, "tries to end the comment: * /");
	lacks(c, "comment: */");
	CHECK(!strcmp(c, again), "two generations differ");
	compiles(c);
	free(c);
	free(again);
}

/* Without calls: no statement table, no done(), nothing unused. */
static void test_no_calls(void)
{
	char *c = csource("# nothing but a comment\n"), *empty = csource("");

	lacks(c, "stmts[");
	has(c, " *\t# nothing but a comment\n");
	compiles(c);
	compiles(empty);
	free(c);
	free(empty);
}

/* The reproducer's arena is the executor's: every layout's places, in order. */
static void test_arena_layouts(void)
{
	char *c = csource("");
	const char *at = c;

	for (int l = 0; l < MMF_NR_ARENA_LAYOUTS; l++)
		for (int m = 0; m < MMF_NR_MAPS; m++) {
			const struct mmf_slot_place *pl = &mmf_arena_layouts[l].slot[m];
			char *place = mmf_xasprintf("{ 0x%llxull, %d }",
						    (unsigned long long)pl->boundary, pl->half_slots);

			at = strstr(at, place);
			CHECK(at, "no %s (%s, m%d) after the one before", place,
			      mmf_arena_layouts[l].name, m);
			free(place);
		}
	free(c);
}

static void test_expectations(void)
{
	char *c = csource("m0 = mmap(0, 64, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
			  "write(m0, 0, 64, 0x5a)\n"
			  "madvise(m0, 0, 64, MADV_PAGEOUT)\n"
			  "madvise(m0, 32, 32, MADV_FREE)\n"
			  "read(m0, 0, 64)\n");

	/* One row per run of pages that expect the same, with the title. */
	has(c, "static const struct expect expect_4[] = {\n"
	       "\t{ 0, 32, 1, { { 0x5a, 0 } }, { 2, 1, 0, -1 }, "
	       "\"anon page\" },\n"
	       "\t{ 32, 32, 2, { { 0x5a, 0 }, { 0x00, 0 } }, { 3, 2, 1, 0 }, "
	       "\"anon page\" },\n};\n");
	/* The model depends on the write's count and the mmap's success, not
	 * on what PAGEOUT or the read return; after the write page 0 is known.
	 */
	has(c, "[0] = { \"m0 = mmap(0, 64, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\", "
	       "GUARD_SIGN, 0, 0 },");
	has(c, "[1] = { \"write(m0, 0, 64, 0x5a)\", GUARD_EXACT, 64, 0 },");
	has(c, "[2] = { \"madvise(m0, 0, 64, MADV_PAGEOUT)\", GUARD_NONE, 0, 0 },");
	has(c, "[4] = { \"read(m0, 0, 64)\", GUARD_NONE, 0, 0 },");
	/* Only the runtime the program's calls need. */
	lacks(c, "page_index");
	lacks(c, "start_thread");
	lacks(c, "rt_set_file");
	free(c);

	/* A mremap moves the content: the word of the page it was written at. */
	c = csource("m0 = mmap(0, 4, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
		    "write(m0, 0, 4, 0x22)\n"
		    "mremap(m0, 0, 4, m1, 8, 4, MREMAP_MAYMOVE|MREMAP_FIXED)\n"
		    "read(m1, 8, 4)\n");
	has(c, "[2] = { \"mremap(m0, 0, 4, m1, 8, 4, MREMAP_MAYMOVE|MREMAP_FIXED)\", "
	       "GUARD_EXACT, 1032, 1032 },");
	has(c, "\t{ 1032, 4, 1, { { 0x22, -1032 } },");
	free(c);
}

/* Results the model tells: documented errnos, faults, refusals. */
static void test_predictions(void)
{
	char *c = csource("m0 = mmap(0, 8, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
			  "write(m0, 0, 8, 0x01)\n"
			  "mlock(m0, 0, 8)\n"
			  "madvise(m0, 0, 8, MADV_DONTNEED)\n"
			  "m0 = mmap(4, 8, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
			  "mprotect(m0, 0, 8, PROT_READ)\n"
			  "write(m0, 0, 8, 0x33)\n"
			  "mlock(m0, 0, 16)\n"
			  "m1 = mmap(0, 8, f0, PROT_READ, MAP_SHARED, 0)\n");

	has(c, "[3] = { \"madvise(m0, 0, 8, MADV_DONTNEED)\", GUARD_SIGN, -22, 0 },");
	has(c, "[4] = { \"m0 = mmap(4, 8, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\", "
	       "GUARD_SIGN, -17, 0 },");
	has(c, "[6] = { \"write(m0, 0, 8, 0x33)\", GUARD_EXACT, 0, 0 },");
	has(c, "[7] = { \"mlock(m0, 0, 16)\", GUARD_SIGN, -12, 0 },");
	has(c, "[8] = { \"m1 = mmap(0, 8, f0, PROT_READ, MAP_SHARED, 0)\", GUARD_SIGN, -9,");
	free(c);
}

/* Pages the program races on are only touched. */
static void test_races(void)
{
	/* A thread and the main line on one slot: m0 is unknown to both. */
	char *c = csource("m0 = mmap(0, 8, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
			  "m1 = mmap(0, 8, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
			  "write(m0, 0, 8, 0x01)\n"
			  "write(m1, 0, 8, 0x02)\n"
			  "thread {\n"
			  "\twrite(m0, 0, 8, 0x03)\n"
			  "\tread(m1, 0, 8)\n"
			  "}\n"
			  "read(m0, 0, 8)\n"
			  "join\n"
			  "read(m0, 0, 8)\n"
			  "read(m1, 0, 8)\n");

	has(c, "r = verify(8, 0, 0, 8, NULL, 0);");
	/* The thread reads m1, which only it touches; after the join m0 is
	 * lost (the join does not say who wrote last), m1 is known again.
	 */
	has(c, "r = verify(6, 1, 0, 8, expect_6, 1);");
	has(c, "r = verify(10, 0, 0, 8, NULL, 0);");
	has(c, "r = verify(11, 1, 0, 8, expect_11, 1);");
	free(c);

	/* A fork child keeps its private pages; a file a thread of the group
	 * re-creates may or may not be the one it got.
	 */
	c = csource("f0 = memfd(8)\n"
		    "m0 = mmap(0, 8, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
		    "write(m0, 0, 8, 0x44)\n"
		    "thread {\n"
		    "\tf0 = memfd(8)\n"
		    "}\n"
		    "c0 = fork {\n"
		    "\tread(m0, 0, 8)\n"
		    "\tm1 = mmap(0, 8, f0, PROT_READ|PROT_WRITE, MAP_SHARED, 0)\n"
		    "\twrite(m1, 0, 8, 0x55)\n"
		    "\tread(m1, 0, 8)\n"
		    "}\n"
		    "join\n");
	has(c, "r = verify(7, 0, 0, 8, expect_7, 1);");
	has(c, "r = verify(10, 1, 0, 8, NULL, 0);");
	free(c);

	/* Nor can the thread tell whether the child wrote its new file. */
	c = csource("thread {\n"
		    "\tf0 = memfd(8)\n"
		    "\tm0 = mmap(0, 8, f0, PROT_READ|PROT_WRITE, MAP_SHARED, 0)\n"
		    "\twrite(m0, 0, 8, 0x11)\n"
		    "\tread(m0, 0, 8)\n"
		    "}\n"
		    "c0 = fork {\n"
		    "\tm1 = mmap(0, 8, f0, PROT_READ|PROT_WRITE, MAP_SHARED, 0)\n"
		    "\twrite(m1, 0, 8, 0x22)\n"
		    "}\n"
		    "join\n");
	has(c, "r = verify(4, 0, 0, 8, NULL, 0);");
	free(c);
}

/* The model after text, every call succeeding (writes with all their pages). */
static struct mmf_shadow *model_of(const char *text)
{
	struct mmf_shadow *sh = mmf_shadow_new(1);
	struct mmf_prog p;
	char err[128];

	CHECK(!mmf_prog_parse(text, &p, err, sizeof(err)), "parse: %s", err);
	for (int i = 0; i < p.nr; i++) {
		int idx, n = 0;

		/* Writes return their count of pages, the others 0. */
		if (!mmf_stmt_range(&p.stmts[i], &idx, &n) ||
		    !(mmf_calls[p.stmts[i].id].flags & MMF_CALL_STORES))
			n = 0;
		mmf_shadow_apply(sh, &p.stmts[i], i, n);
	}
	return sh;
}

/* Garbage in what a vset does not use: its padding and slots past n. */
static void scribble(struct mmf_vset *vs)
{
	struct mmf_vset keep = *vs;

	memset(vs, 0xa5, sizeof(*vs));
	vs->n = keep.n;
	memcpy(vs->v, keep.v, keep.n * sizeof(keep.v[0]));
}

/*
 * The guards come from comparing models: equal in meaning is equal,
 * whatever the bytes a vset does not use hold (they used to decide
 * GUARD_EXACT or NONE by the stack's garbage).
 */
static void test_models_same(void)
{
	static const char prog[] = "f0 = memfd(8)\n"
				   "m0 = mmap(0, 8, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
				   "m1 = mmap(0, 8, f0, PROT_READ|PROT_WRITE, MAP_SHARED, 0)\n"
				   "write(m0, 0, 8, 0x5a)\n"
				   "madvise(m0, 4, 4, MADV_FREE)\n"
				   "write(m1, 0, 8, 0x22)\n";
	struct mmf_shadow *a = model_of(prog), *b = model_of(prog);
	int o = a->file_obj[0];
	struct mmf_vset vs;

	CHECK(o >= 0 && mmf_shadow_expect(a, 4, &vs) && vs.n == 2, "f0 and m0's FREE pages known");
	CHECK(mmf_shadow_same(a, b), "one program, one model");
	for (int i = 0; i < 8; i++) {
		scribble(&b->pages[i].own);
		scribble(&b->objs[o].pages[i]);
	}
	scribble(&b->pages[MMF_SLOT_PAGES + 8].own);
	CHECK(mmf_shadow_same(a, b), "unused bytes of vsets count");
	b->pages[4].own.n = 1;
	CHECK(!mmf_shadow_same(a, b), "a dropped value does not count");
	b->pages[4].own.n = 2;
	b->objs[o].pages[7].v[0]++;
	CHECK(!mmf_shadow_same(a, b), "an object's page does not count");
	b->objs[o].pages[7].v[0]--;
	b->pages[3].dontfork = 1;
	CHECK(!mmf_shadow_same(a, b), "a page's flag does not count");
	mmf_shadow_delete(a);
	mmf_shadow_delete(b);
}

/* Zeros over zero pages, a pattern over itself: the model does not depend on the count. */
static void test_guard_unchanged(void)
{
	char *c = csource("m0 = mmap(0, 8, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
			  "write(m0, 0, 8, 0x00)\n"
			  "write(m0, 0, 8, 0x31)\n"
			  "write(m0, 0, 8, 0x31)\n");

	has(c, "[1] = { \"write(m0, 0, 8, 0x00)\", GUARD_NONE, 8, 0 },");
	has(c, "[2] = { \"write(m0, 0, 8, 0x31)\", GUARD_EXACT, 8, 0 },");
	has(c, "[3] = { \"write(m0, 0, 8, 0x31)\", GUARD_NONE, 8, 0 },");
	free(c);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_every_call),
	TAP_TEST(test_no_calls),
	TAP_TEST(test_arena_layouts),
	TAP_TEST(test_expectations),
	TAP_TEST(test_predictions),
	TAP_TEST(test_races),
	TAP_TEST(test_models_same),
	TAP_TEST(test_guard_unchanged),
};

int main(void)
{
	return tap_run(tests);
}
