// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/wire.h"
#include "util/codec.h"

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

void mmf_wire_put_frames(unsigned long seq, const struct mmf_crash *c,
			 void (*emit)(void *ctx, const char *line, size_t len), void *ctx)
{
	struct strbuf rec, line;
	size_t parts;

	mmf_sb_init(&rec);
	mmf_sb_init(&line);
	mmf_wire_put(&rec, seq, c);
	parts = (rec.len + MMF_WIRE_FRAME_BYTES - 1) / MMF_WIRE_FRAME_BYTES;
	for (size_t k = 0; k < parts; k++) {
		size_t off = k * MMF_WIRE_FRAME_BYTES, len = MIN(rec.len - off, MMF_WIRE_FRAME_BYTES);

		line.len = 0;
		mmf_sb_printf(&line, MMF_WIRE_FRAME_WORD "%lu %zu %zu %08x ", seq, k + 1, parts,
			      mmf_crc32(rec.buf + off, len));
		mmf_base64_put(&line, rec.buf + off, len);
		emit(ctx, line.buf, line.len);
	}
	mmf_sb_free(&rec);
	mmf_sb_free(&line);
}

/* The most parts a record may have: its fields' limit. */
#define FRAMES_MAX	((4 * MMF_WIRE_FIELD_MAX + HEADER_MAX) / MMF_WIRE_FRAME_BYTES + 1)

struct frame_rec {
	unsigned long seq;
	size_t nr, have;
	unsigned char **part;
	size_t *len;
};

struct mmf_wire_frames {
	struct frame_rec *recs;
	int nr;
};

struct mmf_wire_frames *mmf_wire_frames_new(void)
{
	return mmf_xcalloc(1, sizeof(struct mmf_wire_frames));
}

void mmf_wire_frames_free(struct mmf_wire_frames *fr)
{
	if (!fr)
		return;
	for (int i = 0; i < fr->nr; i++) {
		for (size_t k = 0; k < fr->recs[i].nr; k++)
			free(fr->recs[i].part[k]);
		free(fr->recs[i].part);
		free(fr->recs[i].len);
	}
	free(fr->recs);
	free(fr);
}

static struct frame_rec *rec_of(struct mmf_wire_frames *fr, unsigned long seq, size_t nr)
{
	struct frame_rec *r;

	for (int i = 0; i < fr->nr; i++)
		if (fr->recs[i].seq == seq)
			return fr->recs[i].nr == nr ? &fr->recs[i] : NULL;
	fr->recs = mmf_xrealloc(fr->recs, (fr->nr + 1) * sizeof(*fr->recs));
	r = &fr->recs[fr->nr++];
	*r = (struct frame_rec){ .seq = seq, .nr = nr };
	r->part = mmf_xcalloc(nr, sizeof(*r->part));
	r->len = mmf_xcalloc(nr, sizeof(*r->len));
	return r;
}

int mmf_wire_frames_line(struct mmf_wire_frames *fr, const char *line, size_t len, char *err,
			 size_t n)
{
	const char *p = memmem(line, len, MMF_WIRE_FRAME_WORD, strlen(MMF_WIRE_FRAME_WORD));
	const char *end = line + len, *b;
	unsigned long seq, k, nr, crc;
	unsigned char *buf;
	struct frame_rec *r;
	char head[128];
	int used = 0;
	long got;

	if (!p)
		return 0;
	while (end > p && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	snprintf(head, sizeof(head), "%.*s", (int)MIN(end - p, 127), p);
	if (sscanf(head, MMF_WIRE_FRAME_WORD "%lu %lu %lu %8lx %n", &seq, &k, &nr, &crc,
		   &used) != 4 || !used || !k || k > nr || nr > FRAMES_MAX) {
		snprintf(err, n, "a damaged frame line: '%.60s'", head);
		return -1;
	}
	b = p + used;
	buf = mmf_xmalloc((end - b) / 4 * 3 + 3);
	got = mmf_base64_get(b, end - b, buf);
	if (got < 0 || got > MMF_WIRE_FRAME_BYTES || mmf_crc32(buf, got) != crc) {
		snprintf(err, n, "finding %lu: frame %lu of %lu damaged (%s)", seq, k, nr,
			 got < 0 ? "not base64" : "its CRC differs");
		free(buf);
		return -1;
	}
	r = rec_of(fr, seq, nr);
	if (!r) {
		snprintf(err, n, "finding %lu: frame %lu says %lu frames, an earlier one not",
			 seq, k, nr);
		free(buf);
		return -1;
	}
	if (r->part[k - 1]) {
		free(buf);	/* the same frame again (a log collected twice) */
		return 1;
	}
	r->part[k - 1] = buf;
	r->len[k - 1] = got;
	r->have++;
	return 1;
}

int mmf_wire_frames_count(const struct mmf_wire_frames *fr)
{
	return fr->nr;
}

int mmf_wire_frames_get(const struct mmf_wire_frames *fr, int i, struct mmf_wire_finding *f,
			char *err, size_t n)
{
	const struct frame_rec *r = &fr->recs[i];
	struct strbuf sb;
	size_t used;
	int ret;

	memset(f, 0, sizeof(*f));
	if (r->have < r->nr) {
		size_t k = 0;

		while (r->part[k])
			k++;
		snprintf(err, n, "finding %lu: %zu of its %zu frames missing, the first %zu",
			 r->seq, r->nr - r->have, r->nr, k + 1);
		return 0;
	}
	mmf_sb_init(&sb);
	for (size_t k = 0; k < r->nr; k++)
		mmf_sb_add(&sb, (const char *)r->part[k], r->len[k]);
	ret = mmf_wire_get(sb.buf, sb.len, &used, f, err, n);
	if (ret == 1 && (used != sb.len || f->seq != r->seq)) {
		snprintf(err, n, "finding %lu: its frames hold %zu bytes, the record %zu", r->seq,
			 sb.len, used);
		mmf_wire_finding_free(f);
		ret = -1;
	} else if (ret == 0) {
		snprintf(err, n, "finding %lu: its frames hold part of a record", r->seq);
		ret = -1;
	}
	mmf_sb_free(&sb);
	return ret;
}
