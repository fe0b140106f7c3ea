/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The data-integrity oracle: a shadow model that predicts the content of
 * every page of the arena from the calls of a program and their results.
 *
 * A page holds a pattern: every 64-bit word equal to one value that encodes
 * the write's tag, the program's nonce and the arena page it was written at,
 * so a page mapped at the wrong place or from an older write is told apart
 * from a zeroed or torn one. A prediction is a small set of values (MADV_FREE
 * keeps "old content or zero" until the next write); where the model cannot
 * know (racing blocks, failed calls with partial effects) it stops
 * predicting that page instead of guessing.
 *
 * Pure: no system calls. The executor feeds it each call and its result.
 */
#ifndef MMF_SHADOW_H
#define MMF_SHADOW_H

#include <stdbool.h>
#include <stdint.h>

#include "model/prog.h"

#define MMF_ARENA_PAGES		(MMF_NR_MAPS * MMF_SLOT_PAGES)
#define MMF_VSET_MAX		4
#define MMF_SHADOW_OBJS		64
#define MMF_HIST		4

/*
 * A set of possible page contents; n == 0 means unknown. Only n and the
 * first n values have a meaning: the other slots and the padding hold
 * anything, so models are compared with mmf_shadow_same(), never memcmp.
 */
struct mmf_vset {
	uint8_t n;
	uint64_t v[MMF_VSET_MAX];
};

struct mmf_shadow_page {
	uint16_t mapped : 1;
	uint16_t lost : 1;	/* mapping unknown until munmap/mmap */
	uint16_t locked : 1;
	uint16_t wipe : 1;	/* MADV_WIPEONFORK */
	uint16_t wipe_maybe : 1;	/* a failed (KEEP|WIPE)ONFORK may have set it */
	uint16_t dontfork : 1;	/* MADV_DONTFORK */
	uint16_t view : 1;	/* content is the object page's */
	uint16_t maybe_cow : 1;	/* a private view may have been COWed: own = snapshot */
	uint16_t priv : 1;	/* MAP_PRIVATE */
	uint16_t guard : 1;	/* a guard region may be installed */
	uint16_t lock_unknown : 1;	/* a failed (un)lock may have changed it */
	/* userfaultfd (rules/uffd.c): a private file view that a MISSING
	 * fault may have given a zero page of its own; UFFDIO_POISON done.
	 */
	uint16_t uffd_zero : 1;
	uint16_t poison : 1;
	uint16_t pin_maybe : 1;	/* the io_uring pin may no longer be this page */
	uint16_t sealed : 1;	/* mseal: stays until the process ends */
	uint8_t prot;
	/* Zero is the state of a page never mapped, so that a fresh model is
	 * zeroed memory the kernel faults in only where a program goes.
	 */
	uint8_t obj1;		/* backing object + 1, 0 for anonymous private */
	uint8_t hist[MMF_HIST];	/* statement + 1 of the last calls that touched it */
	uint16_t objpage;
	uint16_t pinpage;	/* io_uring buffer page + 1 pinned here, 0 none */
	struct mmf_vset own;
};

/*
 * Pins (pins.c, rules/pin.c). A vmsplice'd page in a pipe: what the pipe will return,
 * and the arena page (and file page) whose later content it may take, as
 * the pipe holds a reference to the page, not a copy.
 */
struct mmf_pipe_ent {
	struct mmf_vset v;
	uint16_t idx1;		/* arena page + 1 it follows, 0 none */
	uint8_t obj1;		/* object + 1 of the file page it is, 0 none */
	uint16_t objpage;
	int16_t si;		/* the vmsplice */
};

struct mmf_pipe {
	uint16_t head, nr;
	struct mmf_pipe_ent e[MMF_PIPE_PAGES];
};

struct mmf_pins {
	struct mmf_pipe pipes[MMF_NR_PIPES];
	uint8_t contested_pipes;	/* used by racing parties: unknown */
	uint16_t ring_idx, ring_n;	/* registered buffer, ring_n 0: none */
};

/* What file slot fN holds, beyond the object's pages (sh->file_kind). */
enum mmf_file_kind {
	MMF_FILE_PLAIN,		/* memfd or tmpfs file: an object */
	MMF_FILE_HUGETLB,	/* hugetlbfs: no object, mappings lost */
	MMF_FILE_SECRET,	/* memfd_secret: an object, mappings VM_LOCKED */
	MMF_FILE_DEVZERO,	/* /dev/zero: every mapping is anonymous memory */
};

struct mmf_shadow_obj {
	bool live;
	uint16_t npages;
	struct mmf_vset *pages;
};

/* A new field of the model is compared in mmf_shadow_same() too. */
struct mmf_shadow {
	uint32_t nonce;
	bool locks_exact;	/* VmLck can be predicted */
	bool mcl_future;
	/* What the running concurrency group races on (see group_begin). */
	uint8_t contested_slots;	/* lost while the group runs */
	uint8_t shared_slots;		/* object-backed pages unknown */
	uint8_t contested_files;	/* mmap and re-creation give unknowns */
	uint64_t contested_objs;
	int file_obj[MMF_NR_FILES];	/* fN -> object index, -1 none */
	struct mmf_pins pins;
	uint8_t file_kind[MMF_NR_FILES];	/* enum mmf_file_kind */
	struct mmf_shadow_page pages[MMF_ARENA_PAGES];
	struct mmf_shadow_obj objs[MMF_SHADOW_OBJS];
};

void mmf_shadow_init(struct mmf_shadow *sh, uint32_t nonce);
void mmf_shadow_free(struct mmf_shadow *sh);
/* The two models are equal in meaning: field by field, padding and unused
 * slots aside.
 */
bool mmf_shadow_same(const struct mmf_shadow *a, const struct mmf_shadow *b);
/* A model on zeroed memory from calloc: only touched pages cost memory. */
struct mmf_shadow *mmf_shadow_new(uint32_t nonce);
void mmf_shadow_delete(struct mmf_shadow *sh);

static inline int mmf_page_obj(const struct mmf_shadow_page *pg)
{
	return pg->obj1 - 1;
}

/* Statement index of the h-th newest call that touched pg, -1 if none. */
static inline int mmf_page_hist(const struct mmf_shadow_page *pg, int h)
{
	return pg->hist[h] - 1;
}

/* The word a write of tag at arena page idx stores. */
uint64_t mmf_shadow_word(const struct mmf_shadow *sh, uint64_t tag, int idx);

/*
 * Apply statement s (index si in the program) that returned res: 0 or a
 * count on success (write/read: pages done before a fault; mremap: the arena
 * page the range now starts at), -errno on failure.
 */
void mmf_shadow_apply(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res);

/* Expected content of arena page idx; false when the model cannot tell. */
bool mmf_shadow_expect(const struct mmf_shadow *sh, int idx, struct mmf_vset *out);

/* The word pwrite of tag stores in page pg of a file. */
uint64_t mmf_shadow_file_word(const struct mmf_shadow *sh, uint64_t tag, int pg);

/* Expected content of page pg of file fN; false when the model cannot tell. */
bool mmf_shadow_expect_file(const struct mmf_shadow *sh, int f, int pg, struct mmf_vset *out);

/* The child's view right after fork(): DONTFORK gone, WIPEONFORK zeroed,
 * no locks.
 */
void mmf_shadow_fork_child(struct mmf_shadow *sh);

/* Stop predicting: every page of slot m (mapping unknown), every page of
 * object o (content unknown).
 */
void mmf_shadow_lose_slot(struct mmf_shadow *sh, int m);
void mmf_shadow_lose_obj(struct mmf_shadow *sh, int o);

/*
 * Concurrency: a group is the statements from the first block opened after
 * a join up to the next join. Before it runs, mark what its parties (the
 * main line and each block) race on: slots two threads or the main line
 * touch, objects any two parties reach. Pages of a fork child's private
 * mappings are its own and stay predicted.
 */
void mmf_shadow_group_begin(struct mmf_shadow *sh, const struct mmf_prog *p, int first, int join);
/* In the parent after forking the block at index bi: it cannot see what the
 * child does to shared objects.
 */
void mmf_shadow_forked(struct mmf_shadow *sh, const struct mmf_prog *p, int first, int bi);
/* In the child of the block at bi: threads opened before it in the group
 * were running when the address space was copied.
 */
void mmf_shadow_child_of(struct mmf_shadow *sh, const struct mmf_prog *p, int first, int bi);

void mmf_shadow_group_end(struct mmf_shadow *sh);

/* Arena pages [*idx, *idx + *n) that statement s covers; false if none. */
bool mmf_stmt_range(const struct mmf_stmt *s, int *idx, int *n);

/*
 * The second range of a call that moves pages (MMF_CALL_MOVES) or works on
 * two (MMF_CALL_RANGE2): args 3 and 4 are its map and page; its count is
 * its own NPAGES arg 5 when it has one (mremap's target,
 * process_madvise_vec's second iovec), else the first range's, which then
 * fits both (uffd_move's source). False for other calls.
 */
bool mmf_stmt_second_range(const struct mmf_stmt *s, int *idx, int *n);

/* uffd_move's destination and source arena pages and their common count. */
void mmf_uffd_move_range(const struct mmf_stmt *s, int *dst, int *src, int *n);

/* Pages the model counts as mapped and mlocked (for VmLck); -1 when some
 * page's mapping or lock state is unknown.
 */
long mmf_shadow_locked_pages(const struct mmf_shadow *sh);


/* Object a page's content lives in ("anon" when private anonymous). */
const char *mmf_shadow_backing_name(const struct mmf_shadow *sh, int idx);

#endif
