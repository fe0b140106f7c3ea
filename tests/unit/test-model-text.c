// SPDX-License-Identifier: GPL-2.0
/*
 * Text codec: print(parse(x)) == x for canonical programs, hand-written and
 * generated, and one "line N: reason" error for each kind of malformed input.
 */
#include <string.h>

#include "model/prog.h"
#include "tap.h"
#include "util/rand.h"
#include "util/util.h"

/* Every call, every argument type, every resource kind, blocks and comments. */
static const char all_calls[] =
	"# setup\n"
	"m0 = mmap(0, 512, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
	"f1 = memfd(16)\n"
	"f3 = tmpfile(1024)\n"
	"m1 = mmap(16, 16, f1, PROT_READ, MAP_SHARED, MAP_NORESERVE|MAP_POPULATE)\n"
	"m7 = mmap(1023, 1, f3, PROT_NONE, MAP_SHARED_VALIDATE, "
	"MAP_FIXED|MAP_LOCKED|MAP_NORESERVE|MAP_POPULATE|MAP_NONBLOCK)\n"
	"write(m0, 0, 512, 0x5a)\n"
	"write(m0, 1, 1, 0xff)\n"
	"read(m0, 16, 32)\n"
	"madvise(m0, 0, 512, MADV_PAGEOUT)\n"
	"process_madvise(m0, 0, 512, self, MADV_COLD)\n"
	"mlock(m0, 0, 1)\n"
	"mlock2(m0, 0, 2, MLOCK_ONFAULT)\n"
	"mlock2(m0, 0, 2, 0)\n"
	"munlock(m0, 0, 1024)\n"
	"mlockall(MCL_CURRENT|MCL_FUTURE|MCL_ONFAULT)\n"
	"munlockall()\n"
	"mincore(m0, 0, 8)\n"
	"msync(m1, 0, 16, MS_INVALIDATE|MS_SYNC)\n"
	"msync(m1, 0, 16, 0)\n"
	"mprotect(m0, 0, 4, PROT_READ|PROT_WRITE|PROT_EXEC)\n"
	"mremap(m0, 0, 512, m2, 512, 256, MREMAP_MAYMOVE|MREMAP_FIXED|MREMAP_DONTUNMAP)\n"
	"munmap(m2, 512, 256)\n"
	"swapoff(s3)\n"
	"swapon(s3, -1, SWAP_FLAG_DISCARD|SWAP_FLAG_DISCARD_ONCE|SWAP_FLAG_DISCARD_PAGES)\n"
	"swapon(s0, 100, 0)\n"
	"cg_move(c3, 2)\n"
	"cg_limit(0, MEMORY_SWAP_MAX, 0)\n"
	"cg_reclaim(1, 1024)\n"
	"f0 = memfd_create(1, MFD_ALLOW_SEALING|MFD_HUGETLB|MFD_NOEXEC_SEAL|MFD_EXEC)\n"
	"f1 = memfd_secret(4)\n"
	"f2 = devzero()\n"
	"memfd_seal(f0, F_SEAL_SEAL|F_SEAL_SHRINK|F_SEAL_GROW|F_SEAL_WRITE|F_SEAL_FUTURE_WRITE)\n"
	"fallocate(f0, 1023, 1, ZERO_RANGE)\n"
	"ftruncate(f3, 1024)\n"
	"pwrite(f0, 0, 4, 0x00)\n"
	"pread(f1, 5, 6)\n"
	"special_map(m7, 0, 17, PERF_RING)\n"
	"prctl_merge(0)\n"
	"ksm_wait(1)\n"
	"thp_knob(SHMEM, within_size)\n"
	"mbind(m0, 0, 512, MPOL_WEIGHTED_INTERLEAVE, 1, MPOL_MF_STRICT|MPOL_MF_MOVE|MPOL_MF_MOVE_ALL)\n"
	"mbind(m0, 0, 512, MPOL_DEFAULT, -1, 0)\n"
	"move_pages(m0, 0, 1024, c2, -1)\n"
	"migrate_pages(self, 1, 0)\n"
	"compact_memory()\n"
	"process_madvise_vec(m0, 0, 8, m1, 4, 4, MADV_GUARD_INSTALL)\n"
	"mseal(m0, 0, 8)\n"
	"c0 = fork {\n"
	"\twrite(m0, 0, 1, 0x01)\n"
	"\t# in the child\n"
	"\tprocess_madvise(m0, 0, 1, c3, MADV_COLLAPSE)\n"
	"}\n"
	"thread {\n"
	"}\n"
	"c3 = fork {\n"
	"\tmadvise(m0, 0, 1, MADV_GUARD_REMOVE)\n"
	"}\n"
	"thread {\n"
	"\tread(m0, 0, 1)\n"
	"}\n"
	"join\n"
	"thread {\n"
	"\tread(m0, 0, 1)\n"
	"}\n"
	"uffd_create(UFFD_DEV, UFFD_FEATURE_EVENT_FORK|UFFD_FEATURE_MOVE)\n"
	"uffd_register(m0, 0, 16, UFFDIO_REGISTER_MODE_MISSING|UFFDIO_REGISTER_MODE_WP)\n"
	"uffd_copy(m0, 0, 4, 0x21, UFFDIO_COPY_MODE_WP)\n"
	"uffd_zeropage(m0, 4, 4, 0)\n"
	"uffd_writeprotect(m0, 0, 8, UFFDIO_WRITEPROTECT_MODE_WP)\n"
	"uffd_continue(m0, 8, 4, 0)\n"
	"uffd_poison(m0, 12, 4, UFFDIO_MODE_DONTWAKE)\n"
	"uffd_move(m0, 16, 8, m3, 0, UFFDIO_MOVE_MODE_ALLOW_SRC_HOLES)\n"
	"uffd_unregister(m0, 0, 16)\n"
	"# pins\n"
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
	"join\n"
	"race(4, block1, 0, 2000)\n"
	"thread {\n"
	"\tread(m0, 0, 1)\n"
	"}\n"
	"write(m0, 1, 1, 0x22)\n"
	"join\n"
	"# the end\n";

static const struct bad {
	const char *text;
	int line;
	const char *reason;
} bads[] = {
	{ "read(m0, 0, 1)\nfoo(m0)\n", 2, "unknown call 'foo'" },
	{ "read(m0, 0)\n", 1, "read: expected 3 arguments" },
	{ "read(m0, 0, 1, 2)\n", 1, "read: expected ')' after 3 arguments" },
	{ "munlockall(0)\n", 1, "munlockall: expected ')' after 0 arguments" },
	{ "read(m0, 1024, 1)\n", 1, "read: bad page '1024'" },
	{ "read(m0, 0, 0)\n", 1, "read: bad npages '0'" },
	{ "read(m0, 0, 1025)\n", 1, "read: bad npages '1025'" },
	{ "madvise(m0, 0, 1, MADV_FOO)\n", 1, "madvise: bad advice 'MADV_FOO'" },
	{ "madvise(m0, 0, 1, 7)\n", 1, "madvise: bad advice '7'" },
	{ "process_madvise(m0, 0, 1, self, MADV_FREE)\n", 1,
	  "process_madvise: bad advice 'MADV_FREE'" },
	{ "mprotect(m0, 0, 1, PROT_READ|PROT_FOO)\n", 1, "mprotect: bad prot 'PROT_FOO'" },
	{ "mprotect(m0, 0, 1, 0x100)\n", 1, "mprotect: bad prot '0x100'" },
	{ "write(m0, 0, 1, 0x100)\n", 1, "write: bad tag '0x100'" },
	{ "swapon(s0, 101, 0)\n", 1, "swapon: bad prio '101'" },
	{ "swapon(s0, -2, 0)\n", 1, "swapon: bad prio '-2'" },
	{ "swapoff(s4)\n", 1, "swapoff: bad swap 's4'" },
	{ "m9 = mmap(0, 1, anon, PROT_READ, MAP_PRIVATE, 0)\n", 1, "mmap: bad map 'm9'" },
	{ "f0 = mmap(0, 1, anon, PROT_READ, MAP_PRIVATE, 0)\n", 1, "mmap: bad map 'f0'" },
	{ "m0 = mmap(0, 1, f4, PROT_READ, MAP_PRIVATE, 0)\n", 1, "mmap: bad backing 'f4'" },
	{ "write(f0, 0, 1, 1)\n", 1, "write: bad map 'f0'" },
	{ "process_madvise(m0, 0, 1, c4, MADV_COLD)\n", 1, "process_madvise: bad target 'c4'" },
	{ "mmap(0, 1, anon, PROT_READ, MAP_PRIVATE, 0)\n", 1, "mmap: result must be named" },
	{ "m0 = read(m0, 0, 1)\n", 1, "read defines no resource" },
	{ "m0 = fork {\n}\n", 1, "fork: bad child 'm0'" },
	{ "thread\n", 1, "thread: expected '{'" },
	{ "read m0\n", 1, "read: expected '('" },
	{ "read(m0, 0, 1) junk\n", 1, "trailing text 'junk'" },
	{ "join()\n", 1, "trailing text '()'" },
	{ "c0 = fork {\n\twrite(m0, 0, 1, 0x01)\n", 2, "block not closed with '}'" },
	{ "thread {\n\tthread {\n}\n", 2, "blocks do not nest" },
	{ "read(m0, 0, 1)\n}\n", 2, "'}' without a block" },
	{ "thread {\n\tjoin\n}\n", 2, "join inside a block" },
	{ "race(2, main, 0, 100)\nread(m0, 0, 1)\n", 2,
	  "race must come right before the first block of a group" },
	{ "race(2, main, 0, 100)\n", 1, "race must come right before the first block of a group" },
	{ "thread {\n}\nrace(2, main, 0, 100)\nthread {\n}\n", 3,
	  "race must come right before the first block of a group" },
	{ "race(65, main, 0, 100)\nthread {\n}\n", 1, "race: bad rounds" },
	{ "thread {\n}\nthread {\n}\nthread {\n}\nthread {\n}\nthread {\n}\n", 9,
	  "more than 4 blocks before a join" },
};

static char *text_of(const struct mmf_prog *p)
{
	struct strbuf sb;

	mmf_sb_init(&sb);
	mmf_prog_print(p, &sb);
	return mmf_sb_detach(&sb);
}

/* print(parse(text)) == text, and the parsed program is valid. */
static void check_round_trip(const char *text)
{
	struct mmf_prog p;
	char err[256];
	char *out;

	CHECK(!mmf_prog_parse(text, &p, err, sizeof(err)), "%s\nin:\n%s", err, text);
	CHECK(!mmf_prog_validate(&p, err, sizeof(err)), "%s\nin:\n%s", err, text);
	out = text_of(&p);
	CHECK(!strcmp(out, text), "round trip differs:\n%s\nvs\n%s", text, out);
	free(out);
}

/* A call with each value of each flag set, one flag at a time and all of them. */
static void check_every_flag(void)
{
	for (int c = 0; c < MMF_NR_CALLS; c++) {
		const struct mmf_call_desc *d = &mmf_calls[c];

		for (int a = 0; a < d->nr_args; a++) {
			const struct mmf_flag_set *set = d->args[a].set;
			struct mmf_prog p = { .nr = 1 };
			char *text;

			if (d->args[a].type != MMF_ARG_FLAGS && d->args[a].type != MMF_ARG_ENUM)
				continue;
			p.stmts[0].id = c;
			mmf_prog_normalize(&p);
			for (int f = 0; f <= set->nr; f++) {
				if (f < set->nr)
					p.stmts[0].args[a] = set->flags[f].val;
				else if (d->args[a].type == MMF_ARG_FLAGS)
					p.stmts[0].args[a] = ~0ull;
				mmf_prog_normalize(&p);
				text = text_of(&p);
				check_round_trip(text);
				free(text);
			}
		}
	}
}

static void check_generated(void)
{
	struct mmf_rand r;
	struct mmf_prog p, q;
	char err[256];

	for (int seed = 0; seed < 2000; seed++) {
		char *text;

		mmf_rand_seed(&r, seed);
		mmf_prog_generate(&r, 1 + seed % MMF_MAX_STMTS, &p);
		text = text_of(&p);
		check_round_trip(text);
		CHECK(!mmf_prog_parse(text, &q, err, sizeof(err)), "%s", err);
		CHECK(q.nr == p.nr && mmf_prog_hash(&q) == mmf_prog_hash(&p),
		      "seed %d: parse(print(p)) != p", seed);
		free(text);
	}
}

static void check_errors(void)
{
	struct mmf_prog p;
	char err[256], want[256];

	for (size_t i = 0; i < ARRAY_SIZE(bads); i++) {
		const struct bad *b = &bads[i];

		snprintf(want, sizeof(want), "line %d: %s", b->line, b->reason);
		CHECK(mmf_prog_parse(b->text, &p, err, sizeof(err)) == -1,
		      "accepted:\n%s", b->text);
		CHECK(!strncmp(err, want, strlen(want)), "error '%s', want '%s'", err, want);
		CHECK(!strchr(err, '\n'), "multi-line error '%s'", err);
	}
}

static void check_all_calls(void)
{
	bool seen[MMF_NR_CALLS] = { false };
	struct mmf_prog p;
	char err[256];

	check_round_trip(all_calls);
	CHECK(!mmf_prog_parse(all_calls, &p, err, sizeof(err)), "%s", err);
	for (int i = 0; i < p.nr; i++)
		if (p.stmts[i].id != MMF_COMMENT)
			seen[p.stmts[i].id] = true;
	for (int c = 0; c < MMF_NR_CALLS; c++)
		CHECK(seen[c], "all_calls lacks %s", mmf_calls[c].name);
}

static void check_round_trip_empty(void)
{
	check_round_trip("");
}

static const struct tap_test tests[] = {
	TAP_TEST(check_all_calls),
	TAP_TEST(check_round_trip_empty),
	TAP_TEST(check_every_flag),
	TAP_TEST(check_generated),
	TAP_TEST(check_errors),
};

int main(void)
{
	return tap_run(tests);
}
