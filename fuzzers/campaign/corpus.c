// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "campaign/corpus.h"
#include "model/prog.h"
#include "util/util.h"

#define EDGES	65536
#define MAX_LEN	(64 << 10)

struct input {
	uint64_t hash;
	uint8_t *bytes;		/* canonical byte form */
	size_t len;
	uint16_t *edges;
	int nr_edges;		/* -1: none on record */
	bool keep;
};

struct inputs {
	struct input *v;
	int n, cap;
};

static int find(const struct inputs *in, uint64_t hash)
{
	for (int i = 0; i < in->n; i++)
		if (in->v[i].hash == hash)
			return i;
	return -1;
}

/* The edges on record for a program: in any vm-N/edges/ of out. */
static int load_edges(const char *out, uint64_t hash, uint16_t **edges)
{
	DIR *d = opendir(out);
	char *text = NULL;
	struct dirent *e;
	int nr = 0, cap = 0;

	while (!text && d && (e = readdir(d))) {
		char *path;

		if (strncmp(e->d_name, "vm-", 3))
			continue;
		path = mmf_xasprintf("%s/%s/edges/%016llx", out, e->d_name,
				     (unsigned long long)hash);
		text = mmf_read_file(path, NULL);
		free(path);
	}
	if (d)
		closedir(d);
	if (!text)
		return -1;
	*edges = NULL;
	for (char *p = text, *end; *p; p = end) {
		unsigned long v = strtoul(p, &end, 16);

		if (end == p)
			break;
		if (v < EDGES) {
			if (nr == cap) {
				cap = cap ? 2 * cap : 256;
				*edges = mmf_xrealloc(*edges, cap * sizeof(**edges));
			}
			(*edges)[nr++] = v;
		}
	}
	free(text);
	return nr;
}

static void add_input(struct inputs *in, const char *out, const uint8_t *data, size_t len)
{
	uint8_t buf[MAX_LEN];
	struct mmf_prog p;
	struct input *x;
	uint64_t h;

	mmf_prog_decode(data, len, &p);
	h = mmf_prog_hash(&p);
	if (find(in, h) >= 0)
		return;
	if (in->n == in->cap) {
		in->cap = in->cap ? 2 * in->cap : 256;
		in->v = mmf_xrealloc(in->v, in->cap * sizeof(*in->v));
	}
	x = &in->v[in->n++];
	memset(x, 0, sizeof(*x));
	x->hash = h;
	x->len = mmf_prog_encode(&p, buf, sizeof(buf));
	x->bytes = mmf_xmalloc(x->len ? x->len : 1);
	memcpy(x->bytes, buf, x->len);
	x->nr_edges = load_edges(out, h, &x->edges);
}

/* Every queue file of out/afl/<instance>/queue/. */
static int add_queues(struct inputs *in, const char *out, char *err, size_t n)
{
	char *afl = mmf_xasprintf("%s/afl", out);
	DIR *d = opendir(afl);
	struct dirent *e;

	if (!d) {
		snprintf(err, n, "%s: %s (not a campaign's output with the AFL++ engine)", afl,
			 strerror(errno));
		free(afl);
		return -1;
	}
	while ((e = readdir(d))) {
		char *qdir = mmf_xasprintf("%s/%s/queue", afl, e->d_name);
		DIR *q = e->d_name[0] == '.' ? NULL : opendir(qdir);
		struct dirent *f;

		while (q && (f = readdir(q))) {
			char *path;
			char *data;
			size_t len;

			if (strncmp(f->d_name, "id:", 3))
				continue;
			path = mmf_xasprintf("%s/%s", qdir, f->d_name);
			data = mmf_read_file(path, &len);
			if (data && len <= MAX_LEN)
				add_input(in, out, (const uint8_t *)data, len);
			free(data);
			free(path);
		}
		if (q)
			closedir(q);
		free(qdir);
	}
	closedir(d);
	free(afl);
	return 0;
}

/* A directory that does not exist yet, or an empty one. */
static int empty_dir(const char *to, char *err, size_t n)
{
	DIR *d;
	struct dirent *e;

	if (mmf_mkdir_p(to, 0755)) {
		snprintf(err, n, "%s: %s", to, strerror(errno));
		return -1;
	}
	d = opendir(to);
	while (d && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(err, n, "%s holds files already: give a new directory", to);
			closedir(d);
			return -1;
		}
	}
	if (d)
		closedir(d);
	return 0;
}

int mmf_corpus_minimize(const char *const *from, const char *to, struct mmf_corpus_stats *st,
			char *err, size_t n)
{
	int *best = mmf_xcalloc(EDGES, sizeof(*best));
	struct inputs in = { 0 };
	int r = -1;

	memset(st, 0, sizeof(*st));
	for (int i = 0; from[i]; i++)
		if (add_queues(&in, from[i], err, n))
			goto out;
	if (empty_dir(to, err, n))
		goto out;
	/* best[e]: 1 + the smallest input with edge e. */
	for (int i = 0; i < in.n; i++) {
		in.v[i].keep = in.v[i].nr_edges < 0;
		st->unknown += in.v[i].nr_edges < 0;
		for (int k = 0; k < in.v[i].nr_edges; k++) {
			int *b = &best[in.v[i].edges[k]];

			if (!*b)
				st->edges++;
			if (!*b || in.v[*b - 1].len > in.v[i].len)
				*b = i + 1;
		}
	}
	for (int e = 0; e < EDGES; e++)
		if (best[e])
			in.v[best[e] - 1].keep = true;
	for (int i = 0; i < in.n; i++) {
		char *path;

		if (!in.v[i].keep)
			continue;
		path = mmf_xasprintf("%s/prog-%016llx", to, (unsigned long long)in.v[i].hash);
		if (mmf_write_file_new(path, in.v[i].bytes, in.v[i].len)) {
			snprintf(err, n, "%s: %s", path, strerror(errno));
			free(path);
			goto out;
		}
		free(path);
		st->kept++;
	}
	st->inputs = in.n;
	r = 0;
out:
	for (int i = 0; i < in.n; i++) {
		free(in.v[i].bytes);
		free(in.v[i].edges);
	}
	free(in.v);
	free(best);
	return r;
}
