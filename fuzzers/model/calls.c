// SPDX-License-Identifier: GPL-2.0
/*
 * One descriptor per call, made from calls.def. The flag sets its
 * arguments name are defined by the family that owns them, in
 * model/calls/FAMILY.c.
 */
#include "model/prog.h"

/* The argument descriptors of calls.def. */
#define ARG(n, t)	{ .name = n, .type = MMF_ARG_##t }
#define MAP(n)		ARG(n, MAP)
#define PAGE(n)		ARG(n, PAGE)
#define NPAGES(n)	ARG(n, NPAGES)
#define FILESLOT(n)	ARG(n, FILE)
#define TARGET(n)	ARG(n, TARGET)
#define TAG(n)		ARG(n, TAG)
#define SWAP(n)		ARG(n, SWAP)
#define CHILD(n)	ARG(n, CHILD)
#define BACKING(n)	ARG(n, BACKING)
#define INT(n, lo, hi)	{ .name = n, .type = MMF_ARG_INT, .min = lo, .max = hi }
#define FLAGS(n, s)	{ .name = n, .type = MMF_ARG_FLAGS, .set = &(s) }
#define ENUM(n, s)	{ .name = n, .type = MMF_ARG_ENUM, .set = &(s) }
/* Always the first args: MMF_CALL_RANGE's args 0..2. */
#define RANGE								\
	[0] = MAP("map"), [1] = PAGE("page"), [2] = NPAGES("npages")

/* The number of argument descriptors in a list of them. */
#define NARGS(...)	((int)(sizeof((struct mmf_arg_desc[]){ __VA_ARGS__ }) /	\
			       sizeof(struct mmf_arg_desc)))

const struct mmf_call_desc mmf_calls[MMF_NR_CALLS] = {
#define MMF_CALL(id, fn, family, name, flags, weight, ...)			\
	[MMF_##id] = { name, NARGS(__VA_ARGS__), { __VA_ARGS__ }, flags,		\
		       MMF_BLOCK_NONE, weight },
#define MMF_BLOCK(id, fn, name, kind, flags, weight, ...)			\
	[MMF_##id] = { name, NARGS(__VA_ARGS__), { __VA_ARGS__ }, flags, kind, weight },
#include "model/calls.def"
#undef MMF_CALL
#undef MMF_BLOCK
};
