// SPDX-License-Identifier: GPL-2.0
/*
 * Rules of the pin calls: what the kernel writes into pinned (or merely
 * referenced) pages must be what the process reads back.
 *
 * - vmsplice takes a reference to each page (FOLL_GET, a read-only pin),
 *   not a copy: the pipe returns the page as it is when read. Whether a
 *   later write by the process reaches that page depends on whether the
 *   page was exclusive (written in place) or shared (COW), which the model
 *   does not know, so an entry is the union of its content at the splice
 *   and every content its page takes while the entry follows it (pins.c).
 * - io_uring registered buffers are long-term pins (FOLL_WRITE|FOLL_LONGTERM,
 *   which breaks COW at registration). READ_FIXED writes the pinned pages
 *   wherever they are mapped now (pinpage follows mremap), and nowhere once
 *   the page left the mapping. Pinned pages are neither discarded after
 *   MADV_FREE nor unmapped by reclaim, so what READ_FIXED wrote stays.
 * - O_DIRECT reads and process_vm_readv/writev write through FOLL_PIN or
 *   copy_to_user: as a write by the process, with the content copied from
 *   the file or the other range.
 * Where a call may or may not have reached a page the rule predicts the
 * union; where the source is unknown, the target is too.
 */
#include <stdlib.h>
#include <string.h>

#include "model/arena.h"
#include "oracle/rules.h"
#include "util/util.h"

/* Content of page pg of file f, unknown when racing or past the model. */
static struct mmf_vset load_file(struct mmf_shadow *sh, int f, int pg)
{
	struct mmf_vset *v = mmf_shadow_obj_page(sh, sh->file_obj[f], pg);

	if (!v || mmf_shadow_file_contested(sh, f, sh->file_obj[f]))
		return mmf_vset_unknown;
	return *v;
}

/* The kernel wrote v into arena page idx through its mapping (GUP with
 * FOLL_WRITE, copy_to_user): as a write by the process. With maybe, it
 * may not have: the union.
 */
static void store(struct mmf_shadow *sh, int idx, const struct mmf_vset *v, bool maybe)
{
	struct mmf_shadow_page *pg = &sh->pages[idx];
	int o = mmf_page_obj(pg);
	struct mmf_vset old, *ov;

	if (!maybe || pg->lost || !pg->mapped) {
		mmf_shadow_store(sh, idx, v);
		return;
	}
	if (pg->view && !pg->priv) {
		ov = mmf_shadow_obj_page(sh, o, pg->objpage);
		if (!ov)
			return;
		if (sh->contested_objs & (1ull << o))
			*ov = mmf_vset_unknown;
		else
			mmf_vset_union(ov, v);
		return;
	}
	old = mmf_shadow_load(sh, idx);
	mmf_vset_union(&old, v);
	pg->own = old;
	pg->view = 0;
	pg->maybe_cow = 0;
}

static void store_file(struct mmf_shadow *sh, int f, int pg, const struct mmf_vset *v, bool maybe)
{
	struct mmf_vset *fv = mmf_shadow_obj_page(sh, sh->file_obj[f], pg);

	/* A write past the model's end grows the file: not modelled. */
	if (!fv)
		return;
	if (mmf_shadow_file_contested(sh, f, sh->file_obj[f]))
		*fv = mmf_vset_unknown;
	else if (maybe)
		mmf_vset_union(fv, v);
	else
		*fv = *v;
}

/* The range of s and the pages done, as res counts them. */
static long range_done(const struct mmf_stmt *s, long res, int *idx, int *n)
{
	mmf_stmt_range(s, idx, n);
	return MIN(res, (long)*n);
}

void mmf_rule_vmsplice(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	struct mmf_pipe *pp = &sh->pins.pipes[s->args[3] % MMF_NR_PIPES];
	bool contested = sh->pins.contested_pipes & (1u << (s->args[3] % MMF_NR_PIPES));
	int idx, n;

	res = range_done(s, res, &idx, &n);
	for (int i = 0; i < res && i < n && pp->nr < MMF_PIPE_PAGES; i++) {
		struct mmf_pipe_ent *e = &pp->e[(pp->head + pp->nr++) % MMF_PIPE_PAGES];
		const struct mmf_shadow_page *pg = &sh->pages[idx + i];

		memset(e, 0, sizeof(*e));
		e->v = contested ? mmf_vset_unknown : mmf_shadow_load(sh, idx + i);
		e->idx1 = idx + i + 1;
		e->si = si;
		/* A file page itself (not a COWed copy) may change through the file. */
		if (pg->view && mmf_page_obj(pg) >= 0) {
			e->obj1 = pg->obj1;
			e->objpage = pg->objpage;
		}
	}
}

void mmf_rule_pipe_read(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	struct mmf_pipe *pp = &sh->pins.pipes[s->args[0] % MMF_NR_PIPES];

	for (long i = 0; i < res && pp->nr; i++) {
		memset(&pp->e[pp->head], 0, sizeof(pp->e[0]));
		pp->head = (pp->head + 1) % MMF_PIPE_PAGES;
		pp->nr--;
	}
	if (!pp->nr)
		pp->head = 0;
}

/*
 * The executor unregisters the old buffer first. Pinning for write breaks
 * COW of private file views: a page that succeeded is anonymous now; a
 * failed registration may have broken some (the union, as a populate).
 */
void mmf_rule_uring_register(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int idx, n;

	res = range_done(s, res, &idx, &n);
	mmf_shadow_unpin_all(sh);
	for (int i = 0; i < n; i++) {
		struct mmf_shadow_page *pg = &sh->pages[idx + i];

		if (!pg->mapped || pg->lost)
			continue;
		if (res < 0) {
			mmf_shadow_maybe_cow(sh, pg);
			continue;
		}
		if (pg->view && pg->priv) {
			pg->own = mmf_shadow_load(sh, idx + i);
			pg->view = 0;
			pg->maybe_cow = 0;
		}
		pg->pinpage = i + 1;
	}
	if (res >= 0) {
		sh->pins.ring_idx = idx;
		sh->pins.ring_n = n;
	}
}

/* Arena pages holding buffer page b (pinpage b + 1) take the file's page. */
void mmf_rule_uring_read_fixed(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int f = s->args[3], fpage = s->args[4], idx, n;

	res = range_done(s, res, &idx, &n);
	for (long k = 0; k < res; k++) {
		int b = idx + k - sh->pins.ring_idx;
		struct mmf_vset v = load_file(sh, f, fpage + k);

		for (int i = 0; i < MMF_ARENA_PAGES; i++) {
			struct mmf_shadow_page *pg = &sh->pages[i];

			if (pg->pinpage != b + 1 || !pg->mapped || pg->lost)
				continue;
			/* The pinned page of a file may have left the file (a hole). */
			store(sh, i, &v, pg->pin_maybe || (pg->view && !pg->priv));
		}
	}
}

void mmf_rule_uring_write_fixed(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int f = s->args[3], fpage = s->args[4], idx, n;

	res = range_done(s, res, &idx, &n);
	for (long k = 0; k < res; k++) {
		int b = idx + k - sh->pins.ring_idx;
		struct mmf_vset v = mmf_vset_unknown;

		for (int i = 0; i < MMF_ARENA_PAGES; i++) {
			const struct mmf_shadow_page *pg = &sh->pages[i];

			if (pg->pinpage == b + 1 && !pg->pin_maybe && pg->mapped) {
				v = mmf_shadow_load(sh, i);
				break;
			}
		}
		store_file(sh, f, fpage + k, &v, false);
	}
}

/* A new object, as tmpfile's. */
void mmf_rule_dio_file(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	mmf_rule_tmpfile(sh, s, si, res);
}

/*
 * A read that stops short may have zeroed the rest of its range: iomap
 * copies zeroes for a hole's whole length, then cuts the count at the
 * file's size (ext4, reading past the end of a sparse file).
 */
void mmf_rule_dio_read(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int idx, n;

	res = range_done(s, res, &idx, &n);
	for (long k = 0; k < res; k++) {
		struct mmf_vset v = load_file(sh, s->args[3], s->args[4] + k);

		store(sh, idx + k, &v, false);
	}
	for (long k = MAX(res, 0); res >= 0 && k < n; k++)
		store(sh, idx + k, &mmf_vset_zero, true);
}

/* Does file f have a page mapped in the arena? */
static bool file_mapped(const struct mmf_shadow *sh, int f)
{
	for (int i = 0; i < MMF_ARENA_PAGES; i++)
		if (sh->pages[i].mapped && mmf_page_obj(&sh->pages[i]) == sh->file_obj[f])
			return true;
	return false;
}

void mmf_rule_dio_write(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int f = s->args[3], idx, n;
	/* Page cache that cannot be invalidated after the write stays stale. */
	bool stale = sh->file_obj[f] >= 0 && file_mapped(sh, f);

	res = range_done(s, res, &idx, &n);
	for (long k = 0; k < res; k++) {
		struct mmf_vset v = mmf_shadow_load(sh, idx + k);

		store_file(sh, f, s->args[4] + k, &v, stale);
	}
}

/* First page of the other range of process_vm_*v, -1 when another process's. */
static int remote_idx(const struct mmf_stmt *s)
{
	if (s->args[3] != MMF_TARGET_SELF)
		return -1;
	return s->args[4] * MMF_SLOT_PAGES + s->args[5];
}

/* Copy pages [from, from + res) to [to, to + res): overlapping ranges are
 * copied page by page in an order the model does not follow.
 */
static void copy_pages(struct mmf_shadow *sh, int from, int to, int n, long res)
{
	bool overlap = from < to + n && to < from + n;
	struct mmf_vset *v;

	/* Neither range leaves its slot, as in the executor. */
	res = MIN(res, (long)mmf_slot_clip(from, mmf_slot_clip(to, n)));
	v = mmf_xcalloc(MAX(res, 1), sizeof(*v));
	for (long k = 0; k < res; k++)
		v[k] = overlap ? mmf_vset_unknown : mmf_shadow_load(sh, from + k);
	for (long k = 0; k < res; k++)
		store(sh, to + k, &v[k], false);
	free(v);
}

void mmf_rule_process_vm_readv(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int r = remote_idx(s), idx, n;

	res = range_done(s, res, &idx, &n);
	if (r >= 0) {
		copy_pages(sh, r, idx, n, res);
		return;
	}
	for (long k = 0; k < res; k++)
		store(sh, idx + k, &mmf_vset_unknown, false);
}

/* Into a child: its own model loses the range (mmf_pin_child_of). */
void mmf_rule_process_vm_writev(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int r = remote_idx(s), idx, n;

	res = range_done(s, res, &idx, &n);
	if (r >= 0)
		copy_pages(sh, idx, r, n, res);
}

void mmf_pin_note(const struct mmf_stmt *s, uint8_t *slots, uint8_t *files, uint8_t *uses)
{
	int idx, n;

	switch (s->id) {
	case MMF_VMSPLICE:
		*uses |= 1u << (s->args[3] % MMF_NR_PIPES);
		break;
	case MMF_PIPE_READ:
		*uses |= 1u << (s->args[0] % MMF_NR_PIPES);
		break;
	case MMF_URING_REGISTER:
		*uses |= MMF_PINS_RING;
		break;
	case MMF_URING_READ_FIXED:
	case MMF_URING_WRITE_FIXED:
		*uses |= MMF_PINS_RING;
		*files |= 1u << s->args[3];
		break;
	case MMF_DIO_READ:
	case MMF_DIO_WRITE:
		*files |= 1u << s->args[3];
		break;
	case MMF_DIO_FILE:
		*files |= 1u << s->args[0];
		break;
	case MMF_PROCESS_VM_READV:
	case MMF_PROCESS_VM_WRITEV:
		mmf_stmt_range(s, &idx, &n);
		if (s->args[3] == MMF_TARGET_SELF)
			*slots |= mmf_shadow_range_slots(remote_idx(s),
							 mmf_slot_clip(remote_idx(s), n));
		break;
	default:
		/* The other families' calls use no pin. */
		break;
	}
}

void mmf_pin_child_of(struct mmf_shadow *sh, const struct mmf_prog *p, int first, int bi)
{
	uint64_t c = p->stmts[bi].args[0];

	for (int i = first; i < p->nr && p->stmts[i].id != MMF_JOIN; i++) {
		const struct mmf_stmt *s = &p->stmts[i];
		int idx, n, r;

		if (s->id != MMF_PROCESS_VM_WRITEV || s->args[3] != c + 1)
			continue;
		mmf_stmt_range(s, &idx, &n);
		r = s->args[4] * MMF_SLOT_PAGES + s->args[5];
		for (int k = 0; k < mmf_slot_clip(r, n); k++)
			mmf_shadow_lose_page(sh, &sh->pages[r + k]);
	}
}
