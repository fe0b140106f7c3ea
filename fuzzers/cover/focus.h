/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The focus of coverage: the kernel text address ranges [lo, hi) whose
 * PCs count, by default the functions of mm/. The host finds them in a
 * vmlinux (mmf_focus_load(), cover/cover.h) and hands them to a guest
 * as text, one "lo-hi" pair of hex addresses a line:
 *
 *	ffffffff8141e4d0-ffffffff8141e9a0
 *
 * Both sides keep the ranges sorted and merged, so that a PC is looked up
 * by binary search. This part needs no binutils: the guest has it too.
 */
#ifndef MMF_COVER_FOCUS_H
#define MMF_COVER_FOCUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct mmf_focus_range {
	uint64_t lo, hi;
};

struct mmf_focus {
	struct mmf_focus_range *v;	/* sorted, disjoint, not adjacent once merged */
	size_t n, cap;
};

/* Add [lo, hi) (nothing if empty); mmf_focus_merge() before lookups. */
void mmf_focus_add(struct mmf_focus *f, uint64_t lo, uint64_t hi);
/* Sort the ranges and join those that overlap or touch. */
void mmf_focus_merge(struct mmf_focus *f);
/* The range of the merged f that pc is in, NULL if none. */
const struct mmf_focus_range *mmf_focus_find(const struct mmf_focus *f, uint64_t pc);
/* Whether pc is in a range of the merged f. */
bool mmf_focus_has(const struct mmf_focus *f, uint64_t pc);
/* The addresses of a that are not in b (both merged), into out, merged. */
void mmf_focus_minus(const struct mmf_focus *a, const struct mmf_focus *b, struct mmf_focus *out);
/* How many bytes the ranges hold. */
uint64_t mmf_focus_size(const struct mmf_focus *f);
/* The text form; free it. */
char *mmf_focus_format(const struct mmf_focus *f);
/*
 * The text form back, merged into f (empty before): 0, or -1 with
 * "line N: ..." in err[n] and f empty. Empty lines and lines starting
 * with '#' are skipped.
 */
int mmf_focus_parse(const char *text, size_t len, struct mmf_focus *f, char *err, size_t n);
void mmf_focus_free(struct mmf_focus *f);

/*
 * Weights on parts of the focus: what a patch changed counts more (the
 * AFL++ engine's map gets WEIGHT - 1 more entries for each PC there). The
 * text form is "WEIGHT LO-HI" a line, WEIGHT from 2:
 *
 *	8 ffffffff8141e4d0-ffffffff8141e9a0
 */
#define MMF_FOCUS_WEIGHTS	4
/* The weight of what a patch changed (mmfuzz validate): its functions. */
#define MMF_WEIGHT_CHANGED	8

struct mmf_focus_weights {
	struct mmf_focus f[MMF_FOCUS_WEIGHTS];
	unsigned int weight[MMF_FOCUS_WEIGHTS];
	int n;
};

/* 0, or -1 with "line N: ..." in err[n] and w empty. */
int mmf_focus_weights_parse(const char *text, struct mmf_focus_weights *w, char *err, size_t n);
/* The weight of pc: the largest of the ranges it is in, 1 if none. */
unsigned int mmf_focus_weight(const struct mmf_focus_weights *w, uint64_t pc);
void mmf_focus_weights_free(struct mmf_focus_weights *w);

#endif
