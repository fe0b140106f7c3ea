// SPDX-License-Identifier: GPL-2.0
/*
 * Shadow rules of the pin calls: what the kernel writes into pinned (or
 * merely referenced) pages must be what the process reads back.
 *
 * - vmsplice takes a reference to each page (FOLL_GET, a read-only pin),
 *   not a copy: the pipe returns the page as it is when read. Whether a
 *   later write by the process reaches that page depends on whether the
 *   page was exclusive (written in place) or shared (COW), which the model
 *   does not know, so an entry is the union of its content at the splice
 *   and every content its page takes while the entry follows it. It stops
 *   following when the page leaves the mapping (munmap, mmap over it, a
 *   zap); an mremap takes the entry along.
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

#include "oracle/shadow_int.h"
#include "util/util.h"

enum { A_DONTNEED = 4, A_REMOVE = 9, A_DONTNEED_LOCKED = 24, A_GUARD_INSTALL = 102,
       MR_DONTUNMAP = 0x4 };

static const struct mmf_vset unknown;

/* The content of arena page idx as the model predicts it, or unknown. */
static struct mmf_vset load(const struct mmf_shadow *sh, int idx)
{
	struct mmf_vset v;

	if (!mmf_shadow_expect(sh, idx, &v))
		v.n = 0;
	return v;
}

static struct mmf_vset *file_page(struct mmf_shadow *sh, int f, int pg)
{
	int o = sh->file_obj[f];

	if (o < 0 || !sh->objs[o].live || pg >= sh->objs[o].npages)
		return NULL;
	return &sh->objs[o].pages[pg];
}

/* Content of page pg of file f, unknown when racing or past the model. */
static struct mmf_vset load_file(struct mmf_shadow *sh, int f, int pg)
{
	struct mmf_vset *v = file_page(sh, f, pg);

	if (!v || (sh->contested_files & (1u << f)) ||
	    (sh->contested_objs & (1ull << sh->file_obj[f])))
		return unknown;
	return *v;
}

/* The kernel wrote v into arena page idx through its mapping (GUP with
 * FOLL_WRITE, copy_to_user): as do_write() in shadow.c. With maybe, it
 * may not have: the union.
 */
static void store(struct mmf_shadow *sh, int idx, const struct mmf_vset *v, bool maybe)
{
	struct mmf_shadow_page *pg = &sh->pages[idx];
	int o = mmf_page_obj(pg);

	if (pg->lost || !pg->mapped) {
		mmf_shadow_lose_page(sh, &sh->pages[idx]);
		for (int k = 0; k < MMF_SHADOW_OBJS; k++)
			mmf_shadow_lose_obj(sh, k);
		return;
	}
	if (pg->view && !pg->priv) {
		struct mmf_vset *ov = o >= 0 && sh->objs[o].live && pg->objpage < sh->objs[o].npages ?
			&sh->objs[o].pages[pg->objpage] : NULL;

		if (!ov)
			return;
		if (sh->contested_objs & (1ull << o))
			*ov = unknown;
		else if (maybe)
			mmf_vset_union(ov, v);
		else
			*ov = *v;
		return;
	}
	if (maybe) {
		struct mmf_vset old = load(sh, idx);

		mmf_vset_union(&old, v);
		pg->own = old;
	} else {
		pg->own = *v;
	}
	pg->view = 0;
	pg->maybe_cow = 0;
}

static void store_file(struct mmf_shadow *sh, int f, int pg, const struct mmf_vset *v, bool maybe)
{
	struct mmf_vset *fv = file_page(sh, f, pg);

	/* A write past the model's end grows the file: not modelled. */
	if (!fv)
		return;
	if ((sh->contested_files & (1u << f)) || (sh->contested_objs & (1ull << sh->file_obj[f])))
		*fv = unknown;
	else if (maybe)
		mmf_vset_union(fv, v);
	else
		*fv = *v;
}

static void do_vmsplice(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	struct mmf_pipe *pp = &sh->pins.pipes[s->args[3] % MMF_NR_PIPES];
	bool contested = sh->pins.contested_pipes & (1u << (s->args[3] % MMF_NR_PIPES));
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	for (int i = 0; i < res && i < n && pp->nr < MMF_PIPE_PAGES; i++) {
		struct mmf_pipe_ent *e = &pp->e[(pp->head + pp->nr++) % MMF_PIPE_PAGES];
		const struct mmf_shadow_page *pg = &sh->pages[idx + i];

		memset(e, 0, sizeof(*e));
		e->v = contested ? unknown : load(sh, idx + i);
		e->idx1 = idx + i + 1;
		e->si = si;
		/* A file page itself (not a COWed copy) may change through the file. */
		if (pg->view && mmf_page_obj(pg) >= 0) {
			e->obj1 = pg->obj1;
			e->objpage = pg->objpage;
		}
	}
}

static void do_pipe_read(struct mmf_shadow *sh, const struct mmf_stmt *s, long res)
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

static void unpin_all(struct mmf_shadow *sh)
{
	for (int i = 0; i < MMF_ARENA_PAGES; i++) {
		sh->pages[i].pinpage = 0;
		sh->pages[i].pin_maybe = 0;
	}
	sh->pins.ring_n = 0;
}

/*
 * The executor unregisters the old buffer first. Pinning for write breaks
 * COW of private file views: a page that succeeded is anonymous now; a
 * failed registration may have broken some (the union, as a populate).
 */
static void do_register(struct mmf_shadow *sh, int idx, int n, long res)
{
	unpin_all(sh);
	for (int i = 0; i < n; i++) {
		struct mmf_shadow_page *pg = &sh->pages[idx + i];

		if (!pg->mapped || pg->lost)
			continue;
		if (res < 0) {
			mmf_shadow_maybe_cow(sh, idx + i);
			continue;
		}
		if (pg->view && pg->priv) {
			pg->own = load(sh, idx + i);
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

/* Arena pages holding buffer page b (pinpage b + 1): apply fn's store. */
static void read_fixed(struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, long res)
{
	int f = s->args[3], fpage = s->args[4];

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

static void write_fixed(struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, long res)
{
	int f = s->args[3], fpage = s->args[4];

	for (long k = 0; k < res; k++) {
		int b = idx + k - sh->pins.ring_idx;
		struct mmf_vset v = unknown;

		for (int i = 0; i < MMF_ARENA_PAGES; i++) {
			const struct mmf_shadow_page *pg = &sh->pages[i];

			if (pg->pinpage == b + 1 && !pg->pin_maybe && pg->mapped) {
				v = load(sh, i);
				break;
			}
		}
		store_file(sh, f, fpage + k, &v, false);
	}
}

/* Does file f have a page mapped in the arena? */
static bool file_mapped(const struct mmf_shadow *sh, int f)
{
	for (int i = 0; i < MMF_ARENA_PAGES; i++)
		if (sh->pages[i].mapped && mmf_page_obj(&sh->pages[i]) == sh->file_obj[f])
			return true;
	return false;
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
	struct mmf_vset *v = xcalloc(MAX(res, 1), sizeof(*v));

	for (long k = 0; k < res; k++)
		v[k] = overlap || from + k >= MMF_ARENA_PAGES ? unknown : load(sh, from + k);
	for (long k = 0; k < res && to + k < MMF_ARENA_PAGES; k++)
		store(sh, to + k, &v[k], false);
	free(v);
}

void mmf_pins_apply(struct mmf_shadow *sh, const struct mmf_stmt *s, int si, long res)
{
	int idx = 0, n = 0, r, f = s->args[3];

	if (mmf_stmt_range(s, &idx, &n))
		res = MIN(res, (long)n);
	switch (s->id) {
	case MMF_VMSPLICE:
		do_vmsplice(sh, s, si, res);
		break;
	case MMF_PIPE_READ:
		do_pipe_read(sh, s, res);
		break;
	case MMF_URING_REGISTER:
		do_register(sh, idx, n, res);
		break;
	case MMF_URING_READ_FIXED:
		read_fixed(sh, s, idx, res);
		break;
	case MMF_URING_WRITE_FIXED:
		write_fixed(sh, s, idx, res);
		break;
	case MMF_DIO_FILE:
	{
		/* A new object as tmpfile's, by shadow.c's rule. */
		struct mmf_stmt t = *s;

		t.id = MMF_TMPFILE;
		mmf_shadow_apply(sh, &t, si, res);
		break;
	}
	case MMF_DIO_READ:
		for (long k = 0; k < res; k++) {
			struct mmf_vset v = load_file(sh, f, s->args[4] + k);

			store(sh, idx + k, &v, false);
		}
		break;
	case MMF_DIO_WRITE: {
		/* Page cache that cannot be invalidated after the write stays stale. */
		bool stale = sh->file_obj[f] >= 0 && file_mapped(sh, f);

		for (long k = 0; k < res; k++) {
			struct mmf_vset v = load(sh, idx + k);

			store_file(sh, f, s->args[4] + k, &v, stale);
		}
		break;
	}
	case MMF_PROCESS_VM_READV:
		r = remote_idx(s);
		if (r >= 0) {
			copy_pages(sh, r, idx, n, res);
			break;
		}
		for (long k = 0; k < res; k++)
			store(sh, idx + k, &unknown, false);
		break;
	case MMF_PROCESS_VM_WRITEV:
		/* Into a child: its own model loses the range (child_of). */
		r = remote_idx(s);
		if (r >= 0)
			copy_pages(sh, idx, r, n, res);
		break;
	default:
		break;
	}
}

/* Where an arena page went after s: itself, its mremap target, or -1 gone. */
static int moved(const struct mmf_shadow *sh, const struct mmf_stmt *s, long res, int page)
{
	uint64_t advice = s->args[3];
	int idx, n;

	if (!mmf_stmt_range(s, &idx, &n) || page < idx || page >= idx + n)
		return page;
	switch (s->id) {
	case MMF_MUNMAP:
	case MMF_MMAP:
		return res >= 0 ? -1 : page;
	case MMF_MREMAP:
		if (res < 0 || res == idx)
			return page;
		return page - idx < (int)s->args[5] ? (int)res + page - idx : -1;
	case MMF_MADVISE:
		/* Zapped: the next fault maps another page. */
		if (res >= 0 && (advice == A_DONTNEED || advice == A_DONTNEED_LOCKED ||
				 advice == A_GUARD_INSTALL || advice == A_REMOVE))
			return -1;
		return page;
	default:
		return page;
	}
}

static void follow_pipe(struct mmf_shadow *sh, struct mmf_pipe *pp, const struct mmf_stmt *s,
			long res)
{
	for (int k = 0; k < pp->nr; k++) {
		struct mmf_pipe_ent *e = &pp->e[(pp->head + k) % MMF_PIPE_PAGES];

		if (e->idx1) {
			int to = moved(sh, s, res, e->idx1 - 1);

			e->idx1 = to < 0 || !sh->pages[to].mapped ? 0 : to + 1;
		}
		if (e->idx1) {
			struct mmf_vset v = load(sh, e->idx1 - 1);

			mmf_vset_union(&e->v, &v);
		}
		if (e->obj1) {
			int o = e->obj1 - 1;
			struct mmf_vset v = unknown;

			if (sh->objs[o].live && e->objpage < sh->objs[o].npages &&
			    !(sh->contested_objs & (1ull << o)))
				v = sh->objs[o].pages[e->objpage];
			mmf_vset_union(&e->v, &v);
		}
	}
}

void mmf_pins_follow(struct mmf_shadow *sh, const struct mmf_stmt *s, long res)
{
	int idx, n;

	for (int p = 0; p < MMF_NR_PIPES; p++)
		follow_pipe(sh, &sh->pins.pipes[p], s, res);
	if (!mmf_stmt_range(s, &idx, &n))
		return;
	/* The pinned page left the mapping: what READ_FIXED writes is lost. */
	for (int i = 0; i < n; i++) {
		struct mmf_shadow_page *pg = &sh->pages[idx + i];

		if (!pg->pinpage)
			continue;
		if (!pg->mapped || (s->id == MMF_MREMAP && res >= 0 && res != idx &&
				    (s->args[6] & MR_DONTUNMAP)))
			pg->pinpage = 0;
		else if (s->id == MMF_MADVISE && moved(sh, s, res, idx + i) < 0)
			pg->pinpage = 0;
		else if (s->id == MMF_MADVISE && res < 0 &&
			 (s->args[3] == A_DONTNEED || s->args[3] == A_DONTNEED_LOCKED ||
			  s->args[3] == A_GUARD_INSTALL || s->args[3] == A_REMOVE))
			pg->pin_maybe = 1;
	}
}

void mmf_pins_fork_child(struct mmf_shadow *sh)
{
	/* The child makes its own pipes and ring; its pages are copies. */
	memset(&sh->pins, 0, sizeof(sh->pins));
	unpin_all(sh);
}

static uint8_t range_slots(int idx, int n)
{
	uint8_t m = 0;

	for (int i = idx; i < idx + n && i < MMF_ARENA_PAGES; i += MMF_SLOT_PAGES - i % MMF_SLOT_PAGES)
		m |= 1u << (i / MMF_SLOT_PAGES);
	return m;
}

void mmf_pins_note(const struct mmf_stmt *s, uint8_t *slots, uint8_t *files, uint8_t *uses)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
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
		if (s->args[3] == MMF_TARGET_SELF)
			*slots |= range_slots(s->args[4] * MMF_SLOT_PAGES + s->args[5], n);
		break;
	default:
		break;
	}
}

void mmf_pins_contest(struct mmf_shadow *sh, uint8_t uses)
{
	for (int p = 0; p < MMF_NR_PIPES; p++) {
		struct mmf_pipe *pp = &sh->pins.pipes[p];

		if (!(uses & (1u << p)))
			continue;
		sh->pins.contested_pipes |= 1u << p;
		for (int k = 0; k < MMF_PIPE_PAGES; k++)
			pp->e[k].v = unknown;
	}
}

uint8_t mmf_pins_ring_slots(const struct mmf_shadow *sh)
{
	uint8_t m = 0;

	for (int i = 0; i < MMF_ARENA_PAGES; i++)
		if (sh->pages[i].pinpage)
			m |= 1u << (i / MMF_SLOT_PAGES);
	return m;
}

/*
 * The child of the fork block at bi, slot c: process_vm_writev of any party
 * of the group into cN writes its pages behind its back.
 */
void mmf_pins_child_of(struct mmf_shadow *sh, const struct mmf_prog *p, int first, int bi)
{
	uint64_t c = p->stmts[bi].args[0];

	for (int i = first; i < p->nr && p->stmts[i].id != MMF_JOIN; i++) {
		const struct mmf_stmt *s = &p->stmts[i];
		int idx, n, r;

		if (s->id != MMF_PROCESS_VM_WRITEV || s->args[3] != c + 1)
			continue;
		mmf_stmt_range(s, &idx, &n);
		r = s->args[4] * MMF_SLOT_PAGES + s->args[5];
		for (int k = 0; k < n && r + k < MMF_ARENA_PAGES; k++)
			mmf_shadow_lose_page(sh, &sh->pages[r + k]);
	}
}
