// SPDX-License-Identifier: GPL-2.0
/* A guest's seeds: the stream its campaign's host sends (model/prog.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/fuzz.h"
#include "model/prog.h"
#include "util/util.h"

/* The host writes the stream with the go line: this is for a host that died. */
#define SEEDS_WAIT_MS	60000

/* Read fd up to the end line (without it: EOF or the wait); 0, or -1 with err. */
static int read_stream(int fd, struct strbuf *sb, char *err, size_t n)
{
	uint64_t end = mmf_now_ns() + SEEDS_WAIT_MS * 1000000ull;
	char buf[16384];

	while (!strstr(sb->buf ? sb->buf : "", MMF_SEEDS_END "\n")) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t got;

		if (mmf_now_ns() >= end) {
			snprintf(err, n, "no end of the seeds after %d s", SEEDS_WAIT_MS / 1000);
			return -1;
		}
		if (poll(&pfd, 1, 1000) <= 0)
			continue;
		got = read(fd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			snprintf(err, n, "the seeds end before their end line%s%s",
				 got ? ": " : "", got ? strerror(errno) : "");
			return -1;
		}
		mmf_sb_add(sb, buf, got);
	}
	return 0;
}

int mmf_fuzz_seeds_read(const char *path, struct mmf_prog **progs, int *nr, char *err,
			size_t n)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0, cap = 0, r;
	size_t mark = strlen(MMF_SEED_MARK);
	struct strbuf sb;
	char *p, perr[256];

	*progs = NULL;
	*nr = 0;
	if (fd < 0) {
		snprintf(err, n, "seeds %s: %s", path, strerror(errno));
		return -1;
	}
	mmf_sb_init(&sb);
	r = read_stream(fd, &sb, err, n);
	if (fd)
		close(fd);
	/* Each program runs from its mark's next line to the next mark or the end. */
	for (p = sb.buf; !r && p && !strncmp(p, MMF_SEED_MARK, mark);) {
		char *eol = strchr(p, '\n'), *next = NULL, *text;

		if (eol) {
			next = strstr(eol, "\n" MMF_SEED_MARK);
			if (!next)
				next = strstr(eol, "\n" MMF_SEEDS_END "\n");
		}
		if (!next)
			break;
		if (*nr == cap)
			*progs = mmf_xrealloc(*progs, (cap = cap ? 2 * cap : 32) * sizeof(**progs));
		text = mmf_xasprintf("%.*s", (int)(next - eol), eol + 1);
		if (mmf_prog_parse(text, &(*progs)[*nr], perr, sizeof(perr))) {
			snprintf(err, n, "seed %.*s: %s", (int)(eol - p - mark), p + mark, perr);
			r = -1;
		}
		free(text);
		(*nr)++;
		p = next + 1;
	}
	if (!r && (!p || strncmp(p, MMF_SEEDS_END "\n", strlen(MMF_SEEDS_END) + 1))) {
		snprintf(err, n, "seeds %s: not a stream of seeds (%s lines)", path, MMF_SEED_MARK);
		r = -1;
	}
	mmf_sb_free(&sb);
	if (r) {
		free(*progs);
		*progs = NULL;
		*nr = 0;
	}
	return r;
}
