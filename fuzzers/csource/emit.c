// SPDX-License-Identifier: GPL-2.0
/*
 * The emitters' table, made from model/calls.def, and what the rows of
 * several families share.
 */
#include "csource/emit.h"

const struct mmf_emitter *const mmf_emitters[MMF_NR_CALLS] = {
#define MMF_CALL(id, fn, ...)							\
	[MMF_##id] = &mmf_emit_##fn,
#define MMF_BLOCK(...)
#include "model/calls.def"
#undef MMF_CALL
#undef MMF_BLOCK
};

void mmf_cs_range(const struct mmf_stmt *s, int *idx, int *n)
{
	*idx = 0;
	*n = 0;
	mmf_stmt_range(s, idx, n);
}

void mmf_cs_names_of(struct strbuf *names, const struct mmf_flag_set *set, uint64_t v,
		     bool is_enum)
{
	for (int i = 0; i < set->nr; i++) {
		uint64_t f = set->flags[i].val;

		if (is_enum || !f ? f != v : (v & f) != f)
			continue;
		mmf_sb_printf(names, "%s%s", names->len ? "|" : "", set->flags[i].name);
		if (is_enum || !f)
			return;
	}
}

void mmf_cs_value(struct strbuf *sb, uint64_t v, bool hex, const struct strbuf *names)
{
	mmf_sb_printf(sb, hex ? "0x%llx" : "%llu", (unsigned long long)v);
	if (names->len)
		mmf_sb_printf(sb, " /* %s */", names->buf);
}

void mmf_cs_flag_arg(struct strbuf *sb, const struct mmf_stmt *s, int arg)
{
	const struct mmf_arg_desc *a = &mmf_calls[s->id].args[arg];
	struct strbuf names;

	mmf_sb_init(&names);
	mmf_cs_names_of(&names, a->set, s->args[arg], a->type == MMF_ARG_ENUM);
	mmf_cs_value(sb, s->args[arg], a->type != MMF_ARG_ENUM, &names);
	mmf_sb_free(&names);
}

void mmf_cs_at(struct strbuf *sb, int idx)
{
	mmf_sb_printf(sb, "at(%d, %d)", idx / MMF_SLOT_PAGES, idx % MMF_SLOT_PAGES);
}

void mmf_cs_at_len(struct strbuf *sb, const struct mmf_stmt *s)
{
	int idx, n;

	mmf_cs_range(s, &idx, &n);
	mmf_cs_at(sb, idx);
	mmf_sb_printf(sb, ", len(%d)", n);
}

void mmf_cs_slot_range(struct strbuf *sb, const struct mmf_stmt *s)
{
	int idx, n;

	mmf_cs_range(s, &idx, &n);
	mmf_sb_printf(sb, "%d, %d, %d", idx / MMF_SLOT_PAGES, idx % MMF_SLOT_PAGES, n);
}

void mmf_cs_range_call(struct strbuf *sb, const struct mmf_stmt *s, const char *name, int arg)
{
	mmf_sb_printf(sb, "rt_ret(syscall(SYS_%s, ", name);
	mmf_cs_at_len(sb, s);
	if (arg >= 0) {
		mmf_sb_puts(sb, ", ");
		mmf_cs_flag_arg(sb, s, arg);
	}
	mmf_sb_puts(sb, "))");
}

int mmf_cs_target(const struct mmf_stmt *s, int arg)
{
	return s->args[arg] == MMF_TARGET_SELF ? -1 : (int)s->args[arg] - 1;
}

long mmf_predict_success(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n)
{
	return 0;
}

bool mmf_cs_unmapped(const struct mmf_shadow_page *pg)
{
	return !pg->mapped;
}

long mmf_predict_mapped(const struct mmf_shadow *sh, const struct mmf_stmt *s, int idx, int n)
{
	for (int i = 0; i < n; i++)
		if (mmf_cs_unmapped(&sh->pages[idx + i]))
			return -ENOMEM;
	return 0;
}

bool mmf_cs_no_access(const struct mmf_shadow *sh, const struct mmf_shadow_page *pg)
{
	int o = mmf_page_obj(pg);

	return pg->prot == 0 || pg->guard || pg->poison ||
	       (pg->view && o >= 0 && sh->objs[o].live && pg->objpage >= sh->objs[o].npages);
}
