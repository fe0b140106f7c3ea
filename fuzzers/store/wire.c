// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/wire.h"

#define FINDING	"mmfuzz-finding "
#define SAVED	"mmfuzz-saved "
/* The longest header: the word and five 20-digit numbers. */
#define HEADER_MAX	(sizeof(FINDING) + 5 * 21 + 1)

void mmf_wire_put(struct strbuf *sb, unsigned long seq, const struct mmf_crash *c)
{
	const char *f[4] = { c->title, c->report, c->log, c->progs };

	mmf_sb_printf(sb, FINDING "%lu", seq);
	for (int i = 0; i < 4; i++)
		mmf_sb_printf(sb, " %zu", f[i] ? strlen(f[i]) : 0);
	mmf_sb_puts(sb, "\n");
	for (int i = 0; i < 4; i++)
		if (f[i])
			mmf_sb_puts(sb, f[i]);
}

/* The header line at buf: 1 and its numbers, 0 if incomplete, -1 if none. */
static int header(const char *buf, size_t len, const char *word, int nr, unsigned long *v,
		  size_t *hlen)
{
	const char *nl = memchr(buf, '\n', MIN(len, HEADER_MAX));
	size_t wl = strlen(word);
	const char *p = buf + wl;

	if (memcmp(buf, word, MIN(len, wl)))
		return -1;
	if (!nl)
		return len < HEADER_MAX ? 0 : -1;
	if ((size_t)(nl - buf) < wl)
		return -1;
	for (int i = 0; i < nr; i++) {
		char *end;

		if (*p < '0' || *p > '9')
			return -1;
		v[i] = strtoul(p, &end, 10);
		p = end;
		if (*p != (i + 1 < nr ? ' ' : '\n'))
			return -1;
		p++;
	}
	*hlen = p - buf;
	return 1;
}

int mmf_wire_get(const char *buf, size_t len, size_t *used, struct mmf_wire_finding *f,
		 char *err, size_t n)
{
	unsigned long v[5];
	char **field[4] = { &f->title, &f->report, &f->log, &f->progs };
	size_t hlen, total;
	int r = header(buf, len, FINDING, 5, v, &hlen);

	memset(f, 0, sizeof(*f));
	if (r <= 0) {
		if (r < 0)
			snprintf(err, n, "not a finding record: '%.*s'", (int)MIN(len, 40), buf);
		return r;
	}
	total = hlen;
	for (int i = 1; i < 5; i++) {
		if (v[i] > MMF_WIRE_FIELD_MAX) {
			snprintf(err, n, "finding %lu: a field of %lu bytes", v[0], v[i]);
			return -1;
		}
		total += v[i];
	}
	if (len < total)
		return 0;
	f->seq = v[0];
	buf += hlen;
	for (int i = 0; i < 4; i++) {
		*field[i] = mmf_xmalloc(v[i + 1] + 1);
		memcpy(*field[i], buf, v[i + 1]);
		(*field[i])[v[i + 1]] = '\0';
		buf += v[i + 1];
	}
	if (!f->title[0] || strlen(f->title) != v[1]) {
		snprintf(err, n, "finding %lu: an empty title or one with a NUL byte", v[0]);
		mmf_wire_finding_free(f);
		return -1;
	}
	*used = total;
	return 1;
}

void mmf_wire_finding_free(struct mmf_wire_finding *f)
{
	free(f->title);
	free(f->report);
	free(f->log);
	free(f->progs);
	memset(f, 0, sizeof(*f));
}

void mmf_wire_put_ack(struct strbuf *sb, unsigned long seq)
{
	mmf_sb_printf(sb, SAVED "%lu\n", seq);
}

int mmf_wire_get_ack(const char *buf, size_t len, size_t *used, unsigned long *seq)
{
	size_t hlen;
	int r = header(buf, len, SAVED, 1, seq, &hlen);

	if (r > 0)
		*used = hlen;
	return r;
}
