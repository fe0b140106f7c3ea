// SPDX-License-Identifier: GPL-2.0
/*
 * The C reproducer of a program: one standalone file (libc headers only, a
 * raw syscall(2) for every mm call) that runs the program as the executor
 * does, in the same arena with the same pattern words, and checks its reads
 * against the expectations of the simulation (simulate.c). This file puts
 * it together: the program in a comment, the runtime (runtime/), the
 * statement and expectation tables, and one function per block and one for
 * the main line, each call the expression of its emitter (emit/).
 */
#include <stdlib.h>
#include <string.h>

#include "csource/csource.h"
#include "csource/emit.h"
#include "csource/runtime.h"
#include "csource/sim.h"
#include "model/arena.h"
#include "util/util.h"

static const char *const guard_name[] = {
	[MMF_CS_GUARD_NONE] = "GUARD_NONE",
	[MMF_CS_GUARD_SIGN] = "GUARD_SIGN",
	[MMF_CS_GUARD_EXACT] = "GUARD_EXACT",
};

/* The runtime of the blocks that have one. */
static const char *const block_runtime[][MMF_CS_PIECES] = {
	[MMF_BLOCK_FORK] = { mmf_rt_fork },
	[MMF_BLOCK_THREAD] = { mmf_rt_thread },
	[MMF_BLOCK_END] = { NULL },
	[MMF_BLOCK_JOIN] = { NULL },
	[MMF_BLOCK_RACE] = { mmf_rt_racesync, mmf_rt_race },
};

/* Text inside a C comment: nothing may close it. */
static void comment_text(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		mmf_sb_add(sb, s, 1);
		if (s[0] == '*' && s[1] == '/')
			mmf_sb_puts(sb, " ");
	}
}

static void c_string(struct strbuf *sb, const char *s)
{
	mmf_sb_puts(sb, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			mmf_sb_puts(sb, "\\");
		mmf_sb_add(sb, s, 1);
	}
	mmf_sb_puts(sb, "\"");
}

static void emit_header(struct strbuf *sb, const struct mmf_prog *p)
{
	struct strbuf text;
	char *line, *save = NULL;

	mmf_sb_puts(sb, "// SPDX-License-Identifier: GPL-2.0\n"
		"/*\n"
		" * mmfuzz C reproducer, made by \"mmfuzz gen --csource\". Standalone:\n"
		" *\n"
		" *\tgcc -O2 -pthread -o repro repro.c\n"
		" *\t./repro [-v] [--corrupt-after N] [SWAP0 [SWAP1 ...]]\n"
		" *\n"
		" * It runs the program below as the mmfuzz executor does: the same arena,\n"
		" * pattern words and blocks, a raw syscall for every mm call. A read checks\n"
		" * the pages whose content the shadow model could predict when this file\n"
		" * was made, assuming each call returns what was predicted then; a call\n"
		" * that returns something else stops the checks in its process (said on\n"
		" * stderr). A page that differs is reported on stdout as the executor\n"
		" * reports it, \"DATA CORRUPTION: <class> <backing> page\",\n"
		" * and the exit status is 1; else 0. -v traces every call on stderr.\n"
		" * swapoff(sN) and swapon(sN) act on the Nth path given (none: ENODEV):\n"
		" * give only swap devices that may be turned off.\n"
		" *\n"
		" * The program:\n"
		" *\n");
	mmf_sb_init(&text);
	mmf_prog_print(p, &text);
	/* An empty program prints nothing: no buffer to split. */
	for (line = text.buf ? strtok_r(text.buf, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		mmf_sb_puts(sb, " *\t");
		comment_text(sb, line);
		mmf_sb_puts(sb, "\n");
	}
	mmf_sb_free(&text);
	mmf_sb_puts(sb, " */\n");
}

static void emit_stmt_table(struct strbuf *sb, const struct mmf_cs_sim *sim)
{
	const struct mmf_prog *p = sim->p;
	struct strbuf text;

	mmf_sb_printf(sb, "\nstatic const struct stmt stmts[%d] = {\n", p->nr);
	mmf_sb_init(&text);
	for (int i = 0; i < p->nr; i++) {
		const struct mmf_cs_info *in = &sim->info[i];

		if (p->stmts[i].id == MMF_COMMENT ||
		    mmf_calls[p->stmts[i].id].block == MMF_BLOCK_END)
			continue;
		text.len = 0;
		mmf_stmt_print(&p->stmts[i], &text);
		mmf_sb_printf(sb, "\t[%d] = { ", i);
		c_string(sb, text.buf);
		mmf_sb_printf(sb, ", %s, %ld, %d },\n", guard_name[in->guard], in->want,
			  in->known_page);
	}
	mmf_sb_free(&text);
	mmf_sb_puts(sb, "};\n");
}

/* The arena piece, model/arena.h's layouts written out in place of its mark. */
static void emit_arena(struct strbuf *sb)
{
	static const char mark[] = "\t\tMMF_ARENA_LAYOUTS\n";
	const char *at = strstr(mmf_rt_arena, mark);

	if (!at)
		mmf_die("csource: runtime/arena.c lacks its line MMF_ARENA_LAYOUTS");
	mmf_sb_add(sb, mmf_rt_arena, at - mmf_rt_arena);
	for (size_t i = 0; i < MMF_NR_ARENA_LAYOUTS; i++) {
		const struct mmf_arena_layout *l = &mmf_arena_layouts[i];

		mmf_sb_printf(sb, "\t\t{ /* %s */", l->name);
		for (int m = 0; m < MMF_NR_MAPS; m++)
			mmf_sb_printf(sb, "%s{ 0x%llxull, %d },", m % 2 ? " " : "\n\t\t\t",
				  (unsigned long long)l->slot[m].boundary, l->slot[m].half_slots);
		mmf_sb_puts(sb, "\n\t\t},\n");
	}
	mmf_sb_puts(sb, at + strlen(mark));
}

/* The runtime pieces the program's statements use, once each, in call id order. */
static void emit_runtime(struct strbuf *sb, const struct mmf_prog *p)
{
	const char *done[2 * MMF_NR_CALLS];
	int nr_done = 0;

	for (int id = 0; id < MMF_NR_CALLS; id++) {
		const char *const *pieces = mmf_calls[id].block == MMF_BLOCK_NONE ?
			mmf_emitters[id]->runtime : block_runtime[mmf_calls[id].block];
		bool used = false;

		for (int i = 0; i < p->nr && !used; i++)
			used = p->stmts[i].id == id;
		for (int k = 0; used && k < MMF_CS_PIECES && pieces[k]; k++) {
			int j;

			for (j = 0; j < nr_done && done[j] != pieces[k]; j++)
				;
			if (j < nr_done)
				continue;
			done[nr_done++] = pieces[k];
			mmf_sb_puts(sb, "\n");
			mmf_sb_puts(sb, pieces[k]);
		}
	}
}

/* The expression of a block statement; fork and thread run block_N(). */
static void emit_block(struct strbuf *sb, const struct mmf_stmt *s, int si)
{
	switch (mmf_calls[s->id].block) {
	case MMF_BLOCK_RACE:
		mmf_sb_printf(sb, "race_run(group_%d, %d, %d, %d, %d)", si, (int)s->args[0],
			  (int)s->args[1], (int)s->args[2], (int)s->args[3]);
		break;
	case MMF_BLOCK_FORK:
		mmf_sb_printf(sb, "start_child(%d, block_%d)", (int)s->args[0], si);
		break;
	case MMF_BLOCK_THREAD:
		mmf_sb_printf(sb, "start_thread(block_%d)", si);
		break;
	case MMF_BLOCK_JOIN:
		mmf_sb_puts(sb, "join_all()");
		break;
	case MMF_BLOCK_END:	/* ends the function of its block */
	case MMF_BLOCK_NONE:
		break;
	}
}

/*
 * Statements [from, to) of one party; blocks and racing groups become
 * functions of their own. A racing group's main line meets its blocks
 * after opening the last (meet >= 0: that opener, of meet_blocks blocks).
 */
static void emit_body(struct strbuf *sb, const struct mmf_cs_sim *sim, int from, int to,
		      int meet, int meet_blocks)
{
	const struct mmf_prog *p = sim->p;
	bool calls = false;

	for (int i = from; i < to && !calls; i++)
		calls = p->stmts[i].id != MMF_COMMENT;
	if (calls)
		mmf_sb_puts(sb, "\tlong r;\n\n");
	for (int i = from; i < to; i++) {
		const struct mmf_stmt *s = &p->stmts[i];
		enum mmf_block block;

		if (s->id == MMF_COMMENT) {
			mmf_sb_puts(sb, "\t/* ");
			comment_text(sb, p->text + s->comment);
			mmf_sb_puts(sb, " */\n");
			continue;
		}
		block = mmf_calls[s->id].block;
		mmf_sb_printf(sb, "\t/* %d: ", i);
		mmf_stmt_print(s, sb);
		mmf_sb_puts(sb, " */\n\tr = ");
		if (block == MMF_BLOCK_NONE)
			mmf_emitters[s->id]->expr(sb, s, i, sim);
		else
			emit_block(sb, s, i);
		mmf_sb_printf(sb, ";\n\tdone(%d, r);\n", i);
		if (i == meet)
			mmf_sb_printf(sb, "\trace_meet(0, %d);\n", meet_blocks);
		if (block == MMF_BLOCK_FORK || block == MMF_BLOCK_THREAD)
			i = mmf_prog_block_end(p, i);
		if (block == MMF_BLOCK_RACE)
			i = mmf_prog_next_join(p, i);
	}
}

/* The function of the racing group that race statement ri starts. */
static void emit_group(struct strbuf *sb, const struct mmf_cs_sim *sim, int ri,
		       const struct mmf_race_group *gr)
{
	const struct mmf_prog *p = sim->p;

	mmf_sb_printf(sb, "\n/* %d: ", ri);
	mmf_stmt_print(&p->stmts[ri], sb);
	mmf_sb_printf(sb, ": one round of its group */\nstatic void group_%d(void)\n{\n", ri);
	emit_body(sb, sim, gr->first, gr->join + (gr->join < p->nr), gr->last, gr->nr_blocks);
	if (gr->join == p->nr)
		mmf_sb_puts(sb, "\tjoin_all();\n");
	mmf_sb_puts(sb, "}\n");
}

static void emit_code(struct strbuf *sb, const struct mmf_cs_sim *sim)
{
	const struct mmf_prog *p = sim->p;
	/* A racing group's block: its party there, 0 for other blocks. */
	int party[MMF_MAX_STMTS] = { 0 };
	struct mmf_race_group g;

	for (int i = 0; i < p->nr; i++) {
		const struct mmf_stmt *s = &p->stmts[i];

		if (mmf_prog_race_group(p, i, &g))
			for (int k = g.first, n = 1; k <= g.last; k++)
				if (p->stmts[k].id == MMF_FORK || p->stmts[k].id == MMF_THREAD)
					party[k] = n++;
		if (s->id == MMF_COMMENT || (s->id != MMF_FORK && s->id != MMF_THREAD))
			continue;
		mmf_sb_printf(sb, "\n/* %d: ", i);
		mmf_stmt_print(s, sb);
		mmf_sb_printf(sb, " ... } */\nstatic void block_%d(void)\n{\n", i);
		if (party[i])
			mmf_sb_printf(sb, "\trace_meet(%d, 0);\n", party[i]);
		emit_body(sb, sim, i + 1, mmf_prog_block_end(p, i), -1, 0);
		mmf_sb_puts(sb, "}\n");
		i = mmf_prog_block_end(p, i);
	}
	for (int i = 0; i < p->nr; i++)
		if (mmf_prog_race_group(p, i, &g))
			emit_group(sb, sim, i, &g);
	mmf_sb_puts(sb, "\n/* The main line; the end of the program joins. */\n"
		"static void prog(void)\n{\n");
	emit_body(sb, sim, 0, p->nr, -1, 0);
	mmf_sb_puts(sb, "\tjoin_all();\n}\n\n");
}

void mmf_prog_csource(const struct mmf_prog *p, struct strbuf *sb)
{
	struct mmf_cs_sim *sim = mmf_xcalloc(1, sizeof(*sim));
	/* Without calls, what only calls use would be unused: a warning. */
	bool calls = mmf_prog_nr_calls(p) > 0;

	sim->p = p;
	mmf_sb_init(&sim->data);
	mmf_cs_simulate(sim);
	emit_header(sb, p);
	mmf_sb_puts(sb, mmf_rt_head);
	mmf_sb_puts(sb, mmf_rt_base);
	if (calls)
		emit_stmt_table(sb, sim);
	if (sim->data.len)
		mmf_sb_add(sb, sim->data.buf, sim->data.len);
	mmf_sb_puts(sb, "\n");
	mmf_sb_puts(sb, mmf_rt_common);
	mmf_sb_puts(sb, "\n");
	emit_arena(sb);
	if (calls) {
		mmf_sb_puts(sb, "\n");
		mmf_sb_puts(sb, mmf_rt_done);
	}
	emit_runtime(sb, p);
	emit_code(sb, sim);
	mmf_sb_puts(sb, mmf_rt_main);
	mmf_sb_free(&sim->data);
	free(sim);
}
