/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The program model: pure data, no system calls.
 *
 * A program is a flat sequence of statements. Each is a call of one
 * descriptor (calls.c) with up to MMF_MAX_ARGS integer arguments, or a
 * comment line. Concurrency is expressed by block calls: "cN = fork {" and
 * "thread {" open a block that runs concurrently with the statements after
 * its closing "}"; "join" waits for every open block (the end of the program
 * joins implicitly). Blocks do not nest.
 *
 * Resources are fixed slots, so every program is valid whatever the order of
 * its calls: mappings m0..m7 each own a 2 MiB-aligned window of the
 * executor's arena, files f0..f3 are memfds or tmpfs files, children c0..c3
 * are forked blocks, and swap devices s0..s3 are the ones mmfuzz made for the
 * run (never any other). A call on a slot that holds nothing just fails.
 */
#ifndef MMF_PROG_H
#define MMF_PROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MMF_MAX_ARGS		7
#define MMF_MAX_STMTS		128
#define MMF_NR_MAPS		8
#define MMF_NR_FILES		4
#define MMF_NR_CHILDREN		4
#define MMF_NR_SWAPS		4
#define MMF_MAX_BLOCKS		4	/* concurrently open fork/thread blocks */
/* Pages per mapping slot: two PMD-sized folios with 4 KiB pages. */
#define MMF_SLOT_PAGES		1024
#define MMF_MAX_TAG		255
#define MMF_NR_PIPES		2	/* per-process pipes of vmsplice, p0..p1 */
/* Pages a pipe holds: the executor sizes its pipes to this. */
#define MMF_PIPE_PAGES		64
/* Memory cgroups a program may move into: the run's own, then siblings. */
#define MMF_NR_CGROUPS		3
/*
 * A racing group: "race(rounds, delayed, lo_ns, hi_ns)" right before the
 * first block of a group makes the group (its blocks and the main line, up
 * to the join) run rounds times. In each round every party is pinned to a
 * CPU of its own and waits at a barrier; once released, the delayed party
 * (main, or the group's block1..block4) spins for a delay first, swept from
 * lo_ns to hi_ns over the rounds. The main line meets the others after
 * opening the group's last block.
 */
#define MMF_RACE_MAX_ROUNDS	64
#define MMF_RACE_MAX_DELAY_NS	10000000	/* 10 ms: a syscall under TCG */
#define MMF_RACE_PARTIES	(MMF_MAX_BLOCKS + 1)
/* The comment the executor logs at the start of each round. */
#define MMF_RACE_ROUND_MARK	"mmfuzz: race round"

enum mmf_arg_type {
	MMF_ARG_MAP,		/* m0..m7 */
	MMF_ARG_FILE,		/* f0..f3 */
	MMF_ARG_CHILD,		/* c0..c3 */
	MMF_ARG_SWAP,		/* s0..s3 */
	MMF_ARG_BACKING,	/* anon, f0..f3 */
	MMF_ARG_TARGET,		/* self, c0..c3 */
	MMF_ARG_PAGE,		/* page index inside a slot */
	MMF_ARG_NPAGES,		/* page count, 1..MMF_SLOT_PAGES */
	MMF_ARG_FLAGS,		/* OR of names from a flag set */
	MMF_ARG_ENUM,		/* one name from a flag set */
	MMF_ARG_TAG,		/* content tag of a write, 0..255; 0 writes zeroes */
	MMF_ARG_INT,		/* integer in [min, max] */
};

/* Values of MMF_ARG_BACKING and MMF_ARG_TARGET. */
#define MMF_BACKING_ANON	0	/* then f0..f3 as 1..4 */
#define MMF_TARGET_SELF		0	/* then c0..c3 as 1..4 */

struct mmf_flag {
	const char *name;
	uint64_t val;
};

struct mmf_flag_set {
	const char *name;
	const struct mmf_flag *flags;
	int nr;
};

struct mmf_arg_desc {
	const char *name;
	enum mmf_arg_type type;
	const struct mmf_flag_set *set;	/* FLAGS and ENUM */
	int64_t min, max;		/* INT */
};

/* The concurrency role of a descriptor. */
enum mmf_block {
	MMF_BLOCK_NONE,
	MMF_BLOCK_FORK,		/* "cN = fork {" */
	MMF_BLOCK_THREAD,	/* "thread {" */
	MMF_BLOCK_END,		/* "}" */
	MMF_BLOCK_JOIN,		/* "join" */
	MMF_BLOCK_RACE,		/* "race(...)": the group after it races */
};

/* Descriptor flags. */
#define MMF_CALL_DEFINES	0x1	/* arg 0 is printed as "res = " */
#define MMF_CALL_SWAPCHECK	0x2	/* executor samples pagemap after it */
#define MMF_CALL_GLOBAL		0x4	/* affects the whole process/system */
#define MMF_CALL_RANGE		0x8	/* args 0..2 are map, page, npages */
#define MMF_CALL_ADVICE		0x10	/* the last arg is an advice: part of its name */
#define MMF_CALL_LOCKS		0x20	/* changes what is mlocked */
#define MMF_CALL_MOVES		0x40	/* moves pages to a second range of its args */
#define MMF_CALL_VERIFIES	0x80	/* checks its range against the model: no touch */
#define MMF_CALL_STORES		0x100	/* the program stores tag arg 3 into the range */
#define MMF_CALL_LOCKS_RANGE	0x200	/* mlocks its range (populating unless ONFAULT) */
#define MMF_CALL_SWAPIN		0x400	/* brings back all swap: work scales with its use */
#define MMF_CALL_RANGE2		0x800	/* args 3..5 are a second range it works on */

struct mmf_call_desc {
	const char *name;
	int nr_args;
	struct mmf_arg_desc args[MMF_MAX_ARGS];
	unsigned int flags;
	enum mmf_block block;
	int weight;		/* relative frequency in generation */
};

/* Call ids are indexes into mmf_calls[], in the order of calls.def. */
enum mmf_call_id {
#define MMF_CALL(id, ...)	MMF_##id,
#define MMF_BLOCK(id, ...)	MMF_##id,
#include "model/calls.def"
#undef MMF_CALL
#undef MMF_BLOCK
	MMF_NR_CALLS
};

extern const struct mmf_call_desc mmf_calls[MMF_NR_CALLS];

/*
 * The flag sets of calls.def, each defined in model/calls/FAMILY.c of the
 * family that owns it. Values are the Linux UAPI numbers (the same on
 * x86_64 and arm64), spelled there so that the model does not depend on the
 * C library knowing recent flags: a flag the running kernel lacks is an
 * expected EINVAL, not a build failure.
 */
extern const struct mmf_flag_set mmf_prot_set, mmf_share_set, mmf_mmap_set, mmf_mremap_set,
	mmf_special_set;					/* map */
extern const struct mmf_flag_set mmf_madv_set, mmf_pmadv_set;		/* advise */
extern const struct mmf_flag_set mmf_mlock2_set, mmf_mlockall_set;	/* lock */
extern const struct mmf_flag_set mmf_msync_set;				/* access */
extern const struct mmf_flag_set mmf_memfd_set, mmf_seal_set, mmf_falloc_set;	/* file */
extern const struct mmf_flag_set mmf_swapon_set;			/* swap */
extern const struct mmf_flag_set mmf_uffd_via_set, mmf_uffd_features_set,
	mmf_uffd_register_set, mmf_uffd_copy_set, mmf_uffd_wp_set, mmf_uffd_continue_set,
	mmf_uffd_dontwake_set, mmf_uffd_move_set;			/* uffd */
extern const struct mmf_flag_set mmf_cgknob_set;			/* cgroup */
extern const struct mmf_flag_set mmf_thpknob_set, mmf_thpval_set;	/* tune */
extern const struct mmf_flag_set mmf_party_set;				/* block */
extern const struct mmf_flag_set mmf_mpol_set, mmf_mbind_set;		/* place */

/*
 * Knobs thp_knob may write, relative to /sys/kernel/mm/transparent_hugepage/,
 * indexed by its knob argument. The runner journals every one the kernel
 * has before a program runs and restores them after it (exec opts knobs).
 */
#define MMF_NR_KNOBS		9
extern const char *const mmf_knob_paths[MMF_NR_KNOBS];

/*
 * Files cg_limit writes in a memory cgroup, indexed by its knob argument
 * (mmf_cgknob_set): the v2 file, then its v1 counterpart.
 */
#define MMF_NR_CGKNOBS		3
extern const char *const mmf_cgknob_files[MMF_NR_CGKNOBS][2];

/* A statement is a call, or (id < 0) a comment line kept for printing. */
struct mmf_stmt {
	int16_t id;
	uint16_t comment;	/* comments: offset into prog->text */
	uint64_t args[MMF_MAX_ARGS];
};

#define MMF_COMMENT		(-1)

struct mmf_prog {
	int nr;
	struct mmf_stmt stmts[MMF_MAX_STMTS];
	/* Comment text pool: NUL-separated strings referenced by stmts. */
	uint16_t text_len;
	char text[4096];
};

const struct mmf_call_desc *mmf_call_lookup(const char *name, size_t len);

/* Clamp every argument into its type's range and repair block structure:
 * unmatched "}" are dropped, nested blocks flattened, open blocks closed.
 * Any prog becomes a valid one; a valid one is left unchanged.
 */
void mmf_prog_normalize(struct mmf_prog *p);
/* 0 when valid; else -1 and a one-line reason in err. */
int mmf_prog_validate(const struct mmf_prog *p, char *err, size_t errlen);
/* Append a statement (no-op when the program is full); returns it. */
struct mmf_stmt *mmf_prog_append(struct mmf_prog *p, int id);
/* Number of real calls (comments excluded). */
int mmf_prog_nr_calls(const struct mmf_prog *p);
/* The "}" that closes the block statement bi opens; p->nr when none does. */
int mmf_prog_block_end(const struct mmf_prog *p, int bi);
/* The first join at or after statement from; p->nr when none. */
int mmf_prog_next_join(const struct mmf_prog *p, int from);
/* The statements of the racing group that the race statement at ri starts. */
struct mmf_race_group {
	int first;		/* its first block opener */
	int last;		/* its last block opener */
	int join;		/* its join, p->nr when the program's end joins */
	int nr_blocks;
};
/* false when statement ri is not a race before a group. */
bool mmf_prog_race_group(const struct mmf_prog *p, int ri, struct mmf_race_group *g);
/*
 * The delay of the last round mark (MMF_RACE_ROUND_MARK) among p's
 * comments, -1 when there is none: the round a finding came in.
 */
int64_t mmf_prog_race_mark(const struct mmf_prog *p);
/* Append a comment line; false when the text pool is full. */
bool mmf_prog_add_comment(struct mmf_prog *p, const char *text, size_t len);
/* Stable hash of calls and args (not comments), for dedup. */
uint64_t mmf_prog_hash(const struct mmf_prog *p);

/* Text codec (text.c): one statement per line, see corpus/ for examples. */
struct strbuf;
void mmf_prog_print(const struct mmf_prog *p, struct strbuf *sb);
/*
 * A stream of seed programs (a campaign's host to its guests' fuzzers): each
 * program's text after a line MMF_SEED_MARK NAME, the stream ended by a
 * line MMF_SEEDS_END.
 */
#define MMF_SEED_MARK	"# mmfuzz: seed "
#define MMF_SEEDS_END	"# mmfuzz: seeds end"
/* Parse; on error returns -1 with "line N: reason" in err. */
int mmf_prog_parse(const char *text, struct mmf_prog *p, char *err, size_t errlen);
/* Print one call (no indent, no newline), as in the text form. */
void mmf_stmt_print(const struct mmf_stmt *s, struct strbuf *sb);
/* The call as report titles name it: "madvise(MADV_FREE)" for a call of
 * MMF_CALL_ADVICE, else its name.
 */
void mmf_stmt_title(const struct mmf_stmt *s, struct strbuf *sb);

/*
 * An execution log: each program follows a line starting with this mark
 * (what the executor writes before it runs one).
 */
#define MMF_PROG_EXEC_MARK	"# mmfuzz: executing program"
/*
 * Split an execution log into at most max programs, skipping empty ones;
 * more than max keeps the last max. Returns how many, or -1 with
 * "program N: line M: reason" in err.
 */
int mmf_progs_parse(const char *log, struct mmf_prog *progs, int max, char *err, size_t errlen);

/* Byte codec (bytes.c): every byte string decodes to a valid program. */
void mmf_prog_decode(const uint8_t *data, size_t len, struct mmf_prog *p);
/* Encode so that decode(encode(p)) == p for programs without comments. */
size_t mmf_prog_encode(const struct mmf_prog *p, uint8_t *buf, size_t cap);

/* Generation and mutation (gen.c, mutate.c), deterministic from the rng. */
struct mmf_rand;
/*
 * Both engines' mix (the fuzz loop and the AFL++ mutator): one program in
 * MMF_GENERATE_ONE_IN is generated afresh, of 4 + [0, MMF_GENERATE_CALLS)
 * calls (the loop's --calls default); the others are mutants.
 */
#define MMF_GENERATE_ONE_IN	3
#define MMF_GENERATE_CALLS	24
void mmf_prog_generate(struct mmf_rand *r, int nr_calls, struct mmf_prog *p);
void mmf_prog_mutate(struct mmf_rand *r, struct mmf_prog *p, const struct mmf_prog *other);
/*
 * What generation would put at statement at of p, its model made from p's
 * statements before it: one call with what it needs first (a mapping, a
 * file, a registration), a swap cycle, or a whole block; only range calls
 * inside a block. Writes at most max statements to out; returns how many.
 */
int mmf_prog_generate_at(struct mmf_rand *r, const struct mmf_prog *p, int at,
			 struct mmf_stmt *out, int max);
/*
 * What an edit of mutation did: its name ("arg", "insert", "remove",
 * "replace", "duplicate", "swap", "splice", "wrap") and the statement it
 * changed, added, removed (a block: its opener), moved or spliced first
 * (id MMF_COMMENT when none).
 */
struct mmf_mutation {
	const char *op;
	struct mmf_stmt stmt;
};
/* mmf_prog_mutate, the same edits from the same rng, saying what the last one was. */
void mmf_prog_mutate_named(struct mmf_rand *r, struct mmf_prog *p, const struct mmf_prog *other,
			   struct mmf_mutation *last);
/* Remove statement i of a valid program; a block delimiter unwraps its block. */
void mmf_prog_remove(struct mmf_prog *p, int i);
/* A random valid value for argument i of call desc. */
uint64_t mmf_arg_generate(struct mmf_rand *r, const struct mmf_call_desc *d, int i);

#endif
