// SPDX-License-Identifier: GPL-2.0
/*
 * The arena's layouts (model/arena.h): slots 2 MiB aligned and apart, with
 * their guards, inside the user address space the layout is for and clear
 * of the kernel's places; some slots on either side of a 1 GiB boundary
 * (PMD tables) and, with 47 bits, of a 512 GiB one (PUD tables), a slot
 * across each, one 1 GiB aligned. Then page addresses, their inverse,
 * ranges cut at the slot's end, and the layout the executor takes here.
 */
#include <stdbool.h>
#include <sys/mman.h>

#include "exec/interp.h"
#include "model/arena.h"
#include "oracle/shadow.h"
#include "tap.h"
#include "util/util.h"

#define PSZ	4096L
#define MIB	(1ull << 20)
#define GIB	(1ull << 30)
#define PUD	(1ull << 39)
#define SLOT	((uint64_t)MMF_SLOT_PAGES * PSZ)

/* Where the kernel or ASan put things, by the address bits of a layout. */
static const struct {
	int va_bits;
	uint64_t lo, hi;
	const char *what;
} taken[] = {
	{ 47, 0, 0x10007fff8000ull, "x86_64 ASan's shadow (and the binary, heap below)" },
	{ 47, 0x2aaaaaaaa000ull, 0x2baaaaaaa000ull, "x86_64 legacy mmap base" },
	{ 47, 0x555555554000ull, 1ull << 47, "x86_64 PIE, mmap base, stack, vdso" },
	{ 39, 0, 4 * GIB, "a static binary and its heap" },
	{ 39, 0x2000000000ull, 1ull << 39, "arm64 39-bit legacy mmap base, PIE, stack" },
};

static struct mmf_arena placed(int l, long psz)
{
	struct mmf_arena a;

	mmf_arena_place(&a, &mmf_arena_layouts[l], psz);
	return a;
}

/* A slot ending (with its guard) within a slot below boundary b, another at b. */
static bool pair_around(const struct mmf_arena *a, uint64_t span)
{
	for (int i = 0; i < MMF_NR_MAPS; i++)
		for (int j = 0; j < MMF_NR_MAPS; j++) {
			uint64_t b = a->base[j], end = a->base[i] + 2 * SLOT;

			if (b % span == 0 && end <= b && b - end <= SLOT)
				return true;
		}
	return false;
}

/* A slot with one PMD on each side of a boundary of span. */
static bool slot_across(const struct mmf_arena *a, uint64_t span)
{
	for (int m = 0; m < MMF_NR_MAPS; m++)
		if ((a->base[m] + SLOT / 2) % span == 0)
			return true;
	return false;
}

static void test_layouts(void)
{
	for (int l = 0; l < MMF_NR_ARENA_LAYOUTS; l++) {
		const struct mmf_arena_layout *ly = &mmf_arena_layouts[l];
		struct mmf_arena a = placed(l, PSZ);
		bool gib_aligned = false, one_table = false;

		CHECK(ly->va_bits == 47 || ly->va_bits == 39, "%s: %d bits", ly->name, ly->va_bits);
		for (int m = 0; m < MMF_NR_MAPS; m++) {
			uint64_t b = a.base[m], end = b + 2 * SLOT;

			CHECK(b % (2 * MIB) == 0, "%s: m%d at %#llx not 2 MiB aligned", ly->name, m,
			      (unsigned long long)b);
			CHECK(end <= (1ull << ly->va_bits) - PSZ, "%s: m%d ends at %#llx", ly->name, m,
			      (unsigned long long)end);
			for (size_t t = 0; t < ARRAY_SIZE(taken); t++)
				CHECK(taken[t].va_bits != ly->va_bits || end <= taken[t].lo ||
				      b >= taken[t].hi, "%s: m%d at %#llx in %s", ly->name, m,
				      (unsigned long long)b, taken[t].what);
			gib_aligned |= b % GIB == 0;
			for (int k = 0; k < MMF_NR_MAPS; k++)
				one_table |= k != m && b / GIB == a.base[k] / GIB;
		}
		CHECK(gib_aligned, "%s: no 1 GiB aligned slot", ly->name);
		CHECK(one_table, "%s: no two slots in one PMD table", ly->name);
		CHECK(pair_around(&a, GIB), "%s: no slots on either side of 1 GiB", ly->name);
		CHECK(slot_across(&a, GIB), "%s: no slot across 1 GiB", ly->name);
		if (ly->va_bits < 47)
			continue;
		CHECK(pair_around(&a, PUD), "%s: no slots on either side of 512 GiB", ly->name);
		CHECK(slot_across(&a, PUD), "%s: no slot across 512 GiB", ly->name);
	}
	/* The first layout is the one for x86_64 and arm64. */
	CHECK(mmf_arena_layouts[0].va_bits == 47, "first layout for %d bits",
	      mmf_arena_layouts[0].va_bits);
}

/* Slots and guards never overlap, whatever the page size. */
static void test_apart(void)
{
	static const long sizes[] = { 4096, 16384, 65536 };

	for (int l = 0; l < MMF_NR_ARENA_LAYOUTS; l++)
		for (size_t z = 0; z < ARRAY_SIZE(sizes); z++) {
			struct mmf_arena a = placed(l, sizes[z]);
			uint64_t span = mmf_arena_slot_span(&a);

			for (int i = 0; i < MMF_NR_MAPS; i++)
				for (int j = i + 1; j < MMF_NR_MAPS; j++)
					CHECK(a.base[i] + span <= a.base[j] ||
					      a.base[j] + span <= a.base[i],
					      "%s, %ld-byte pages: m%d and m%d overlap",
					      mmf_arena_layouts[l].name, sizes[z], i, j);
		}
}

static void test_addresses(void)
{
	struct mmf_arena a = placed(0, PSZ);

	for (int m = 0; m < MMF_NR_MAPS; m++) {
		int first = m * MMF_SLOT_PAGES, last = first + MMF_SLOT_PAGES - 1;
		char *p0 = mmf_arena_page(&a, first), *pl = mmf_arena_page(&a, last);

		CHECK((uintptr_t)p0 == a.base[m], "m%d page 0 at %p", m, (void *)p0);
		CHECK(pl == p0 + (MMF_SLOT_PAGES - 1) * PSZ, "m%d last page at %p", m, (void *)pl);
		CHECK(mmf_arena_index(&a, p0, SLOT) == first, "m%d: whole slot", m);
		CHECK(mmf_arena_index(&a, pl, PSZ) == last, "m%d: last page", m);
		CHECK(mmf_arena_index(&a, pl, 2 * PSZ) == -1, "m%d: into the guard", m);
		CHECK(mmf_arena_index(&a, p0 + SLOT, PSZ) == -1, "m%d: the guard", m);
		CHECK(mmf_arena_index(&a, p0 - PSZ, PSZ) == -1, "m%d: below", m);
	}
	CHECK(mmf_arena_index(&a, NULL, PSZ) == -1, "NULL");
}

/* A range stops at its slot's end; it never runs into the next slot. */
static void test_ranges(void)
{
	struct mmf_stmt madv = { .id = MMF_MADVISE, .args = { 0, 1000, 100 } };
	struct mmf_stmt mrem = { .id = MMF_MREMAP, .args = { 1, 1020, 8, 2, 1000, 512, 3 } };
	struct mmf_stmt move = { .id = MMF_UFFD_MOVE, .args = { 3, 10, 100, 4, 1000, 0 } };
	int idx, n;

	CHECK(mmf_slot_clip(5, 10) == 10 && mmf_slot_clip(1020, 10) == 4 &&
	      mmf_slot_clip(2 * MMF_SLOT_PAGES, MMF_SLOT_PAGES) == MMF_SLOT_PAGES, "clip");
	CHECK(mmf_stmt_range(&madv, &idx, &n) && idx == 1000 && n == 24, "madvise: %d %d",
	      idx, n);
	CHECK(mmf_stmt_range(&mrem, &idx, &n) && idx == 2044 && n == 4, "mremap: %d %d", idx, n);
	CHECK(mmf_stmt_second_range(&mrem, &idx, &n) && idx == 3048 && n == 24,
	      "mremap's target: %d %d", idx, n);
	/* uffd_move's one count fits both ranges. */
	CHECK(mmf_stmt_second_range(&move, &idx, &n) && idx == 5096 && n == 24,
	      "uffd_move's source: %d %d", idx, n);
}

/* On this machine (47 or 48 bits, maybe ASan) the first layout is free. */
static void test_executor(void)
{
	CHECK(!mmf_exec_init(), "mmf_exec_init: %m");
	CHECK(mmf_arena.layout == &mmf_arena_layouts[0], "took %s", mmf_arena.layout->name);
	for (int m = 0; m < MMF_NR_MAPS; m++) {
		char *p = mmf_arena_page(&mmf_arena, m * MMF_SLOT_PAGES);
		void *r = mmap(p, SLOT, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

		CHECK(r == p, "m%d: mmap at %p: %p %m", m, (void *)p, r);
		p[SLOT - 1] = 1;
		munmap(p, SLOT);
	}
}

static const struct tap_test tests[] = {
	TAP_TEST(test_layouts),
	TAP_TEST(test_apart),
	TAP_TEST(test_addresses),
	TAP_TEST(test_ranges),
	TAP_TEST(test_executor),
};

int main(void)
{
	return tap_run(tests);
}
