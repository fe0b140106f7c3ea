// SPDX-License-Identifier: GPL-2.0
/*
 * Byte form of programs, for coverage-guided byte mutators (AFL, libFuzzer).
 *
 * A program is a sequence of fixed-size records, one call each:
 *
 *	byte 0	call id, modulo MMF_NR_CALLS
 *	then	the call's arguments in order, little endian, each as wide as
 *		its type needs: 2 bytes for pages and page counts, 1 byte for
 *		slots, tags, integers (offset from their minimum), enums (index
 *		into the set) and flags (one bit per flag of the set)
 *	rest	zero padding up to the record size, ignored
 *
 * Every record is as long as the widest call's, so a mutated call byte or
 * argument bit shifts no later record, and range calls keep map, page and
 * npages at bytes 1, 2-3 and 4-5: a call whose id byte changed still works
 * on the same pages. Packed flags and enum indexes make bit flips and byte
 * arithmetic step between meaningful values. mmf_prog_normalize clamps what
 * is still out of range and repairs the block structure.
 */
#include <string.h>

#include "model/prog.h"
#include "util/util.h"

/* Bytes to hold values up to max. */
static int value_bytes(uint64_t max)
{
	int n = 1;

	while (n < 8 && max >> (8 * n))
		n++;
	return n;
}

/* Flags are packed one bit per flag with a non-zero value, in set order. */
static int nr_flag_bits(const struct mmf_flag_set *set)
{
	int n = 0;

	for (int i = 0; i < set->nr; i++)
		n += set->flags[i].val != 0;
	return n;
}

static int arg_bytes(const struct mmf_arg_desc *a)
{
	switch (a->type) {
	case MMF_ARG_PAGE:
		return value_bytes(MMF_SLOT_PAGES - 1);
	case MMF_ARG_NPAGES:
		return value_bytes(MMF_SLOT_PAGES);
	case MMF_ARG_FLAGS:
		return (nr_flag_bits(a->set) + 7) / 8 ?: 1;
	case MMF_ARG_ENUM:
		return value_bytes(a->set->nr - 1);
	case MMF_ARG_TAG:
		return value_bytes(MMF_MAX_TAG);
	case MMF_ARG_INT:
		return value_bytes(a->max - a->min);
	default:
		return 1;	/* resource slots: a handful of values */
	}
}

static size_t record_bytes(void)
{
	int max = 0;

	for (int c = 0; c < MMF_NR_CALLS; c++) {
		int n = 0;

		for (int i = 0; i < mmf_calls[c].nr_args; i++)
			n += arg_bytes(&mmf_calls[c].args[i]);
		max = MAX(max, n);
	}
	return 1 + max;
}

static uint64_t arg_decode(const struct mmf_arg_desc *a, uint64_t raw)
{
	uint64_t v = 0;
	int bit = 0;

	switch (a->type) {
	case MMF_ARG_FLAGS:
		for (int i = 0; i < a->set->nr; i++)
			if (a->set->flags[i].val && raw & (1ull << bit++))
				v |= a->set->flags[i].val;
		return v;
	case MMF_ARG_ENUM:
		return a->set->flags[raw % a->set->nr].val;
	case MMF_ARG_INT:
		return a->min + (int64_t)(raw % (uint64_t)(a->max - a->min + 1));
	default:
		return raw;
	}
}

/* The inverse of arg_decode() on valid values. */
static uint64_t arg_encode(const struct mmf_arg_desc *a, uint64_t v)
{
	uint64_t raw = 0;
	int bit = 0;

	switch (a->type) {
	case MMF_ARG_FLAGS:
		for (int i = 0; i < a->set->nr; i++) {
			if (!a->set->flags[i].val)
				continue;
			if ((v & a->set->flags[i].val) == a->set->flags[i].val)
				raw |= 1ull << bit;
			bit++;
		}
		return raw;
	case MMF_ARG_ENUM:
		while (raw < (uint64_t)a->set->nr - 1 && a->set->flags[raw].val != v)
			raw++;
		return raw;
	case MMF_ARG_INT:
		return v - a->min;
	default:
		return v;
	}
}

/* n bytes at off, little endian; bytes past len read as 0. */
static uint64_t get_le(const uint8_t *data, size_t len, size_t off, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n && off + i < len; i++)
		v |= (uint64_t)data[off + i] << (8 * i);
	return v;
}

/* Store n bytes at off, little endian; bytes past cap are dropped. */
static void put_le(uint8_t *buf, size_t cap, size_t off, uint64_t v, int n)
{
	for (int i = 0; i < n && off + i < cap; i++)
		buf[off + i] = v >> (8 * i);
}

void mmf_prog_decode(const uint8_t *data, size_t len, struct mmf_prog *p)
{
	size_t rec = record_bytes();

	p->nr = 0;
	p->text_len = 0;
	for (size_t off = 0; off < len && p->nr < MMF_MAX_STMTS; off += rec) {
		const struct mmf_call_desc *d = &mmf_calls[data[off] % MMF_NR_CALLS];
		struct mmf_stmt *s = mmf_prog_append(p, d - mmf_calls);
		size_t pos = off + 1;

		for (int i = 0; i < d->nr_args; i++) {
			int n = arg_bytes(&d->args[i]);

			s->args[i] = arg_decode(&d->args[i], get_le(data, len, pos, n));
			pos += n;
		}
	}
	mmf_prog_normalize(p);
}

size_t mmf_prog_encode(const struct mmf_prog *p, uint8_t *buf, size_t cap)
{
	size_t rec = record_bytes(), off = 0;

	for (int k = 0; k < p->nr; k++) {
		const struct mmf_stmt *s = &p->stmts[k];
		const struct mmf_call_desc *d;
		size_t pos = off + 1;

		if (s->id == MMF_COMMENT)
			continue;
		d = &mmf_calls[s->id];
		if (off < cap)
			memset(buf + off, 0, MIN(rec, cap - off));
		put_le(buf, cap, off, s->id, 1);
		for (int i = 0; i < d->nr_args; i++) {
			int n = arg_bytes(&d->args[i]);

			put_le(buf, cap, pos, arg_encode(&d->args[i], s->args[i]), n);
			pos += n;
		}
		off += rec;
	}
	return off;
}
