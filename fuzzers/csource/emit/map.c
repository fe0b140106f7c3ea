// SPDX-License-Identifier: GPL-2.0
/* The C reproducer's map calls. */
#include "csource/emit.h"
#include "runtime/perf.h"

/* The executor's mmap (rt_mmap() adds MAP_FIXED_NOREPLACE unless the
 * program says MAP_FIXED); files from their page at the range's page.
 */
static MMF_CS_EXPR(emit_mmap)
{
	uint64_t backing = s->args[3], fl = s->args[6];
	bool anon = backing == MMF_BACKING_ANON;
	uint64_t v = fl | s->args[5] | (anon ? MMF_MAP_ANONYMOUS : 0);
	struct strbuf names;

	mmf_sb_puts(sb, "rt_mmap(");
	mmf_cs_at_len(sb, s);
	mmf_sb_puts(sb, ", ");
	mmf_cs_flag_arg(sb, s, 4);
	mmf_sb_puts(sb, ",\n\t\t    ");
	mmf_sb_init(&names);
	mmf_cs_names_of(&names, mmf_calls[s->id].args[5].set, s->args[5], true);
	mmf_sb_puts(&names, anon ? "|MAP_ANONYMOUS" : "");
	mmf_cs_names_of(&names, mmf_calls[s->id].args[6].set, fl, false);
	mmf_cs_value(sb, v, true, &names);
	mmf_sb_free(&names);
	if (anon)
		mmf_sb_puts(sb, ", -1, 0)");
	else
		mmf_sb_printf(sb, ", files[%d], len(%d))", (int)backing - 1, (int)s->args[1]);
}

static MMF_CS_PREDICT(predict_mmap)
{
	uint64_t backing = s->args[3];

	if (backing != MMF_BACKING_ANON && sh->file_obj[backing - 1] < 0)
		return -EBADF;
	for (int i = 0; i < n && !(s->args[6] & MMF_MAP_FIXED); i++)
		if (!mmf_cs_unmapped(&sh->pages[idx + i]))
			return -EEXIST;
	/* Anonymous mappings take only MAP_SHARED or MAP_PRIVATE; file ones
	 * check the flags, and the legacy set lacks MAP_FIXED_NOREPLACE.
	 */
	if (s->args[5] == MMF_MAP_SHARED_VALIDATE && backing == MMF_BACKING_ANON)
		return -EINVAL;
	if (s->args[5] == MMF_MAP_SHARED_VALIDATE && !(s->args[6] & MMF_MAP_FIXED))
		return -EOPNOTSUPP;
	return 0;
}

MMF_EMITTER(mmap, emit_mmap, predict_mmap, mmf_rt_map);

static MMF_CS_EXPR(emit_munmap)
{
	mmf_cs_range_call(sb, s, "munmap", -1);
}

MMF_EMITTER(munmap, emit_munmap, mmf_predict_success);

/* The new range: a slot's page, at most to the end of the slot. */
static int new_npages(const struct mmf_stmt *s)
{
	int dst = s->args[3] * MMF_SLOT_PAGES + s->args[4];

	return mmf_slot_clip(dst, s->args[5]);
}

static MMF_CS_EXPR(emit_mremap)
{
	int dst = s->args[3] * MMF_SLOT_PAGES + s->args[4];

	mmf_sb_puts(sb, "rt_mremap(");
	mmf_cs_at_len(sb, s);
	mmf_sb_printf(sb, ", len(%d), ", new_npages(s));
	mmf_cs_flag_arg(sb, s, 6);
	mmf_sb_puts(sb, ",\n\t\t      ");
	mmf_cs_at(sb, dst);
	mmf_sb_printf(sb, ", %d, page_index, NULL)", dst);
}

/* Pages the model cannot tell apart, which the kernel would have merged. */
static bool one_vma(const struct mmf_shadow *sh, int idx, int n)
{
	const struct mmf_shadow_page *a = &sh->pages[idx];

	for (int i = 0; i < n; i++) {
		const struct mmf_shadow_page *b = &sh->pages[idx + i];

		if (mmf_cs_unmapped(b) || b->obj1 != a->obj1 || b->priv != a->priv ||
		    b->prot != a->prot || b->locked != a->locked || b->wipe != a->wipe ||
		    b->dontfork != a->dontfork || (a->obj1 && b->objpage != a->objpage + i))
			return false;
	}
	return true;
}

/* mm/mremap.c: the first page must be mapped; a move or growth needs the
 * range in one VMA; a shrink just unmaps the tail.
 */
static MMF_CS_PREDICT(predict_mremap)
{
	int dst = s->args[3] * MMF_SLOT_PAGES + s->args[4];
	int n2 = new_npages(s);
	uint64_t flags = s->args[6];
	bool move = flags & (MMF_MREMAP_FIXED | MMF_MREMAP_DONTUNMAP);

	if (move && !(flags & MMF_MREMAP_MAYMOVE))
		return -EINVAL;
	if ((flags & MMF_MREMAP_DONTUNMAP) && n2 != n)
		return -EINVAL;
	/* The executor passes the slot as the new address, used by both. */
	if (move && dst < idx + n && idx < dst + n2)
		return -EINVAL;
	if (mmf_cs_unmapped(&sh->pages[idx]))
		return -EFAULT;
	if (!move && n2 <= n)
		return idx;
	if (!one_vma(sh, idx, n))
		return -EFAULT;
	/* A move the kernel places itself, the executor brings to the slot. */
	if (move)
		return dst;
	for (int i = n; i < mmf_slot_clip(idx, n2); i++)
		if (!mmf_cs_unmapped(&sh->pages[idx + i]))
			return flags & MMF_MREMAP_MAYMOVE ? dst : -ENOMEM;
	if (mmf_slot_clip(idx, n2) == n2)
		return idx;
	/* Grown into the guard after its slot: the executor moves it to the
	 * target, which fails when the two overlap (in one slot).
	 */
	if (dst / MMF_SLOT_PAGES == idx / MMF_SLOT_PAGES && dst < idx + n2 && idx < dst + n2)
		return -EFAULT;
	return dst;
}

MMF_EMITTER(mremap, emit_mremap, predict_mremap, mmf_rt_map, mmf_rt_mremap);

static MMF_CS_EXPR(emit_mprotect)
{
	mmf_cs_range_call(sb, s, "mprotect", 3);
}

MMF_EMITTER(mprotect, emit_mprotect, mmf_predict_mapped);

static MMF_CS_EXPR(emit_mseal)
{
	mmf_sb_puts(sb, "rt_ret(syscall(SYS_mseal, ");
	mmf_cs_at_len(sb, s);
	mmf_sb_puts(sb, ", 0))");
}

/* The calls a sealed range refuses later are predicted as if it were not:
 * a reproducer stops checking at the first of them.
 */
MMF_EMITTER(mseal, emit_mseal, mmf_predict_mapped, mmf_rt_map);

static MMF_CS_EXPR(emit_special_map)
{
	int idx, n;

	mmf_stmt_range(s, &idx, &n);
	mmf_sb_puts(sb, "rt_perf_map(");
	mmf_cs_at(sb, idx);
	mmf_sb_printf(sb, ", %d, psz, perf_fd())", n);
}

/* The ring's pages, where nothing is mapped (MAP_FIXED_NOREPLACE). */
static MMF_CS_PREDICT(predict_special_map)
{
	for (int i = 0; i < n; i++)
		if (!mmf_cs_unmapped(&sh->pages[idx + i]))
			return -EEXIST;
	return rt_perf_pages(n);
}

MMF_EMITTER(special_map, emit_special_map, predict_special_map, mmf_rt_perf, mmf_rt_special);
