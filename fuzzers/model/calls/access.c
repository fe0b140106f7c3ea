// SPDX-License-Identifier: GPL-2.0
/* access: the program's own loads and stores, and the calls that look. */
#include <string.h>

#include "model/builder.h"

MMF_FLAG_SET(mmf_msync_set, "msync",
	{ "MS_ASYNC", 0x1 }, { "MS_INVALIDATE", 0x2 }, { "MS_SYNC", 0x4 });

static void apply_write(struct gen *g, const struct mmf_stmt *s)
{
	g->maps[s->args[0]].written = true;
}

MMF_BUILDER(write, mmf_gen_default, .apply = apply_write);

/* A read checks what a write left: write first, mostly. */
static void build_read(struct gen *g, struct mmf_stmt *s)
{
	struct mmf_stmt w = { .id = MMF_WRITE };

	mmf_gen_default(g, s);
	if (g->body >= 0 || g->maps[s->args[0]].written || mmf_rand_oneof(g->r, 4))
		return;
	memcpy(w.args, s->args, 3 * sizeof(w.args[0]));
	mmf_gen_args(g, &w, 3);
	mmf_gen_push(g, &w);
}

MMF_BUILDER(read, build_read);
MMF_BUILD_DEFAULT(mincore);

static const struct mmf_bias msync_biases[] = {
	{ &mmf_msync_set, 80, { "MS_SYNC", "MS_ASYNC", "MS_SYNC|MS_INVALIDATE" } },
};

MMF_BUILDER(msync, mmf_gen_default, MMF_BIASES(msync_biases));
