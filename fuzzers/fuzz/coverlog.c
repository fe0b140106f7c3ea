// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/coverlog.h"
#include "repro/repro.h"
#include "util/u64set.h"
#include "util/util.h"

/* How long the host may take to have the focus on the port. */
#define FOCUS_MS	10000

struct mmf_cover_log {
	int fd;
	struct mmf_focus focus;
	struct mmf_cover *map;
	uint8_t seen_edges[MMF_COVER_EDGES];
	long nr_edges;
	struct mmf_u64set pcs;	/* every PC sent */
};

/*
 * The focus the host may give on the port (ended by MMF_COVER_FOCUS_END);
 * true if one came. Without one, every PC counts.
 */
static bool read_focus(struct mmf_cover_log *l)
{
	uint64_t end = mmf_now_ns() + FOCUS_MS * 1000000ull;
	struct strbuf sb;
	char buf[4096], err[256], *at = NULL;
	bool ok = false;

	mmf_sb_init(&sb);
	while (!at && mmf_now_ns() < end) {
		struct pollfd pfd = { .fd = l->fd, .events = POLLIN };
		ssize_t k;

		if (poll(&pfd, 1, 200) <= 0)
			continue;
		k = read(l->fd, buf, sizeof(buf));
		if (k <= 0)
			break;
		mmf_sb_add(&sb, buf, k);
		at = strstr(sb.buf, MMF_COVER_FOCUS_END);
	}
	if (at && !mmf_focus_parse(sb.buf, at - sb.buf, &l->focus, err, sizeof(err)))
		ok = l->focus.n > 0;
	else if (at)
		mmf_warnx_("coverage log: bad focus: %s", err);
	mmf_sb_free(&sb);
	return ok;
}

struct mmf_cover_log *mmf_cover_log_open(const char *path)
{
	struct mmf_cover_log *l;

	if (!mmf_kcov_available()) {
		errno = ENOTSUP;
		return NULL;
	}
	l = mmf_xcalloc(1, sizeof(*l));
	l->fd = open(path, O_RDWR | O_CLOEXEC);
	l->map = l->fd < 0 ? NULL : mmf_cover_new(NULL);
	if (l->map && read_focus(l))
		l->map->focus = &l->focus;
	if (!l->map) {
		if (l->fd >= 0)
			close(l->fd);
		free(l);
		return NULL;
	}
	return l;
}

struct mmf_cover *mmf_cover_log_map(struct mmf_cover_log *l)
{
	return l ? l->map : NULL;
}

void mmf_cover_log_take(struct mmf_cover_log *l)
{
	long edges = l ? l->nr_edges : 0;
	struct strbuf sb;

	if (!l)
		return;
	mmf_sb_init(&sb);
	for (size_t i = 0; i < MMF_COVER_PCS; i++)
		if (l->map->pcs[i] && mmf_u64set_add(&l->pcs, l->map->pcs[i]))
			mmf_sb_printf(&sb, "0x%llx\n", (unsigned long long)l->map->pcs[i]);
	for (int e = 0; e < MMF_COVER_EDGES; e++)
		if (l->map->edges[e] && !l->seen_edges[e]) {
			l->seen_edges[e] = 1;
			l->nr_edges++;
		}
	if (l->nr_edges != edges)
		mmf_sb_printf(&sb, "# edges %ld\n", l->nr_edges);
	if (sb.len && mmf_write_all(l->fd, sb.buf, sb.len))
		mmf_warnx_("coverage log: %s", strerror(errno));
	mmf_sb_free(&sb);
}

void mmf_cover_log_close(struct mmf_cover_log *l)
{
	if (!l)
		return;
	close(l->fd);
	mmf_cover_free(l->map);
	mmf_focus_free(&l->focus);
	mmf_u64set_free(&l->pcs);
	free(l);
}
