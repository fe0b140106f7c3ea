// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "campaign/receive.h"
#include "campaign/seeds.h"
#include "model/prog.h"
#include "util/rand.h"
#include "util/util.h"
#include "vm/vm.h"

struct seeds {
	char *dir;
	FILE *index;
	int nr;
};

/*
 * One seed file, named by its content: the same program twice is one
 * seed. A generated one's name sorts after every corpus seed's, and AFL++
 * runs its seeds in name order: a short campaign runs what it was given
 * first.
 */
static int put_seed(struct seeds *s, const void *buf, size_t n, const char *source)
{
	unsigned long long h = mmf_fnv64(MMF_FNV64_INIT, buf, n);
	char *path = mmf_xasprintf(source ? "%s/" MMF_SEED_NAME : "%s/" MMF_SEED_GENERATED,
				   s->dir, h);
	int r = mmf_write_file_new(path, buf, n);

	free(path);
	if (!r) {
		s->nr++;
		if (source)
			fprintf(s->index, MMF_SEED_NAME " %s\n", h, source);
	}
	return r && errno != EEXIST ? -1 : 0;
}

/* A text program (*.mmf) in its byte form, or bytes as they are. */
static int seed_file(struct seeds *s, const char *path, char *err, size_t n)
{
	size_t len;
	char *text = mmf_read_file(path, &len), perr[256];
	uint8_t buf[MMF_SEED_MAX];
	struct mmf_prog p;
	int r;

	if (!text) {
		snprintf(err, n, "corpus %s: %s", path, strerror(errno));
		return -1;
	}
	if (mmf_has_suffix(path, ".mmf")) {
		if (mmf_prog_parse(text, &p, perr, sizeof(perr))) {
			snprintf(err, n, "corpus %s: %s", path, perr);
			free(text);
			return -1;
		}
		len = mmf_prog_encode(&p, buf, sizeof(buf));
		r = put_seed(s, buf, len, path);
	} else {
		r = len && len <= MMF_SEED_MAX ? put_seed(s, text, len, path) : 0;
	}
	free(text);
	if (r)
		snprintf(err, n, "seeds in %s: %s", s->dir, strerror(errno));
	return r;
}

/* The regular files of a directory, not below it. */
static int seed_files(struct seeds *s, const char *from, char *err, size_t n)
{
	DIR *d = opendir(from);
	struct dirent *e;
	int r = 0;

	if (!d) {
		snprintf(err, n, "corpus %s: %s", from, strerror(errno));
		return -1;
	}
	while (!r && (e = readdir(d))) {
		char *path = mmf_xasprintf("%s/%s", from, e->d_name);
		struct stat sb;

		if (e->d_name[0] != '.' && !stat(path, &sb) && S_ISREG(sb.st_mode))
			r = seed_file(s, path, err, n);
		free(path);
	}
	closedir(d);
	return r;
}

/* The queue/ of each instance directory of an AFL++ output (-o). */
static int seed_afl_out(struct seeds *s, const char *out, char *err, size_t n)
{
	DIR *d = opendir(out);
	struct dirent *e;
	int r = 0;

	while (!r && d && (e = readdir(d))) {
		char *q = mmf_xasprintf("%s/%s/queue", out, e->d_name);

		if (e->d_name[0] != '.' && mmf_is_dir(q))
			r = seed_files(s, q, err, n);
		free(q);
	}
	if (d)
		closedir(d);
	return r;
}

/*
 * A corpus entry: a file; a directory of programs; an AFL++ instance's
 * directory (its queue/) or output (its instances' queues); an earlier
 * campaign's OUT (its afl/).
 */
static int seed_path(struct seeds *s, const char *path, char *err, size_t n)
{
	char *afl = mmf_xasprintf("%s/afl", path), *queue = mmf_xasprintf("%s/queue", path);
	struct stat sb;
	int r;

	if (stat(path, &sb)) {
		snprintf(err, n, "corpus %s: %s", path, strerror(errno));
		r = -1;
	} else if (S_ISREG(sb.st_mode)) {
		r = seed_file(s, path, err, n);
	} else if (mmf_is_dir(afl)) {
		r = seed_afl_out(s, afl, err, n);
	} else if (mmf_is_dir(queue)) {
		r = seed_files(s, queue, err, n);
	} else {
		int before = s->nr;

		r = seed_files(s, path, err, n);
		if (!r && s->nr == before)
			r = seed_afl_out(s, path, err, n);
	}
	free(afl);
	free(queue);
	return r;
}

char *mmf_seeds_make(const char *out, const char *dir, const char *const *corpus, int min,
		     int *nr, char *err, size_t n)
{
	struct seeds s = { .dir = mmf_xasprintf("%s/%s", out, dir) };
	char *index = mmf_xasprintf("%s/" MMF_SEEDS_INDEX, out);
	uint8_t buf[MMF_SEED_MAX];
	int r = 0;

	if (!mmf_mkdir_p(s.dir, 0755))
		s.index = fopen(index, "w");
	if (!s.index) {
		snprintf(err, n, "%s: %s", index, strerror(errno));
		r = -1;
	}
	for (int i = 0; !r && corpus && corpus[i]; i++)
		r = seed_path(&s, corpus[i], err, n);
	for (int i = 0; !r && s.nr < min && i < 2 * min; i++) {
		struct mmf_rand rnd;
		struct mmf_prog p;
		size_t len;

		mmf_rand_seed(&rnd, i + 1);
		mmf_prog_generate(&rnd, 8, &p);
		len = mmf_prog_encode(&p, buf, sizeof(buf));
		r = put_seed(&s, buf, len, NULL);
		if (r)
			snprintf(err, n, "seeds in %s: %s", s.dir, strerror(errno));
	}
	if (s.index && fclose(s.index) && !r) {
		snprintf(err, n, "%s: %s", index, strerror(errno));
		r = -1;
	}
	free(index);
	*nr = s.nr;
	if (r) {
		free(s.dir);
		return NULL;
	}
	return s.dir;
}

char *mmf_seed_origin(const char *index, const void *data, size_t len)
{
	char key[32], *text = index ? mmf_read_file(index, NULL) : NULL, *p, *origin;
	size_t k;

	k = snprintf(key, sizeof(key), MMF_SEED_NAME " ",
		     (unsigned long long)mmf_fnv64(MMF_FNV64_INIT, data, len));
	/* A line that starts with the key. */
	for (p = text; p && (p = strstr(p, key)) && p != text && p[-1] != '\n'; p++)
		;
	origin = p ? mmf_xasprintf("seed %.*s", (int)strcspn(p + k, "\n"), p + k) :
		     mmf_xstrdup("fuzzer");
	free(text);
	return origin;
}

char *mmf_seed_origin_text(const char *index, const char *log)
{
	uint8_t buf[MMF_SEED_MAX];
	size_t len = mmf_last_prog_bytes(log, buf, sizeof(buf));

	return index && len ? mmf_seed_origin(index, buf, len) : mmf_xstrdup("fuzzer");
}

int mmf_seeds_text(const char *dir, struct strbuf *sb, char *err, size_t n)
{
	struct dirent **e;
	int ne = scandir(dir, &e, NULL, alphasort);

	if (ne < 0) {
		snprintf(err, n, "seeds %s: %s", dir, strerror(errno));
		return -1;
	}
	/* In name order, as AFL++ takes them: the corpus before the generated. */
	for (int i = 0; i < ne; i++) {
		char *path = mmf_xasprintf("%s/%s", dir, e[i]->d_name);
		size_t len;
		uint8_t *bytes = e[i]->d_name[0] == '.' ? NULL :
				 (uint8_t *)mmf_read_file(path, &len);
		struct mmf_prog p;

		free(path);
		if (bytes) {
			mmf_prog_decode(bytes, len, &p);
			free(bytes);
			mmf_sb_printf(sb, MMF_SEED_MARK "%s\n", e[i]->d_name);
			mmf_prog_print(&p, sb);
		}
		free(e[i]);
	}
	free(e);
	mmf_sb_puts(sb, MMF_SEEDS_END "\n");
	return 0;
}
