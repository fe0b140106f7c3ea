// SPDX-License-Identifier: GPL-2.0
/*
 * A campaign's seeds on their way to a guest's fuzzer (campaign/seeds.h,
 * fuzz --seeds): every corpus program arrives as it was, the stream's end
 * is required, and a finding's program is credited to the corpus file it
 * is, or to the fuzzer once it differs.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/seeds.h"
#include "fuzz/fuzz.h"
#include "model/prog.h"
#include "tap.h"
#include "util/rand.h"
#include "util/util.h"
#include "vm/vm.h"

static char root[] = "/tmp/mmfuzz-seeds.XXXXXX";

static int corpus_files(void)
{
	DIR *d = opendir("corpus");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += mmf_has_suffix(e->d_name, ".mmf");
	if (d)
		closedir(d);
	return n;
}

static char *write_tmp(const char *name, const char *text)
{
	char *path = mmf_xasprintf("%s/%s", root, name);

	CHECK(!mmf_write_file_atomic(path, text, strlen(text)), "write %s", path);
	return path;
}

static void test_corpus_arrives(void)
{
	const char *corpus[] = { "corpus", NULL };
	char err[256], *out = mmf_xasprintf("%s/out", root), *dir, *file, *index;
	struct strbuf sb, log;
	struct mmf_prog *progs;
	int nr, got, seeded = 0;

	dir = mmf_seeds_make(out, "seeds", corpus, 0, &nr, err, sizeof(err));
	CHECK(dir, "seeds: %s", err);
	CHECK(nr == corpus_files(), "%d seeds of %d corpus files", nr, corpus_files());
	mmf_sb_init(&sb);
	CHECK(!mmf_seeds_text(dir, &sb, err, sizeof(err)), "text: %s", err);
	file = write_tmp("stream", sb.buf);
	CHECK(!mmf_fuzz_seeds_read(file, &progs, &got, err, sizeof(err)), "read: %s", err);
	CHECK(got == nr, "%d programs read of %d sent", got, nr);
	index = mmf_xasprintf("%s/" MMF_SEEDS_INDEX, out);
	for (int i = 0; i < got; i++) {
		char *origin;

		/* As the guest logs it: a mark line, then the program. */
		mmf_sb_init(&log);
		mmf_sb_printf(&log, MMF_VM_EXEC_MARK " 7\n");
		mmf_prog_print(&progs[i], &log);
		origin = mmf_seed_origin_text(index, log.buf);
		seeded += !strncmp(origin, "seed corpus/", 12) && mmf_has_suffix(origin, ".mmf");
		free(origin);
		/* One statement less: the fuzzer's own. */
		if (progs[i].nr > 1) {
			progs[i].nr--;
			mmf_sb_free(&log);
			mmf_sb_init(&log);
			mmf_prog_print(&progs[i], &log);
			origin = mmf_seed_origin_text(index, log.buf);
			CHECK(!strcmp(origin, "fuzzer"), "a changed seed credited to %s", origin);
			free(origin);
		}
		mmf_sb_free(&log);
	}
	CHECK(seeded == got, "%d of %d seeds credited to their corpus file", seeded, got);
	free(progs);
	mmf_sb_free(&sb);
	free(file);
	free(index);
	free(dir);
	free(out);
}

/*
 * AFL++ runs its seeds in name order: what was given comes before what
 * the top-up generated, however their hashes fall, so a short campaign
 * runs the maintainer's program first.
 */
static void test_given_first(void)
{
	char err[256], *out = mmf_xasprintf("%s/first", root), *dir, *text;
	const char *corpus[] = { NULL, NULL };
	struct strbuf sb;
	int nr;

	corpus[0] = write_tmp("given.mmf", "m0 = mmap(0, 3, anon, PROT_READ, MAP_PRIVATE, 0)\n");
	dir = mmf_seeds_make(out, "seeds", corpus, 4, &nr, err, sizeof(err));
	CHECK(dir && nr == 4, "seeds: %d, %s", nr, dir ? "" : err);
	mmf_sb_init(&sb);
	CHECK(!mmf_seeds_text(dir, &sb, err, sizeof(err)), "text: %s", err);
	text = strstr(sb.buf, "\n");
	CHECK(text && !strncmp(text + 1, "m0 = mmap(0, 3, anon, PROT_READ, MAP_PRIVATE, 0)\n", 49),
	      "the given program is not the first seed:\n%.200s", sb.buf);
	mmf_sb_free(&sb);
	free(dir);
	free(out);
	free((char *)corpus[0]);
}

static void test_bad_streams(void)
{
	static const struct {
		const char *name, *text, *err;
	} cases[] = {
		{ "empty", MMF_SEEDS_END "\n", NULL },
		{ "no-end", MMF_SEED_MARK "a\nmmap(0, 1, anon, PROT_READ, MAP_PRIVATE, 0)\n",
		  "the seeds end before their end line" },
		{ "not-seeds", "hello\n" MMF_SEEDS_END "\n", "not a stream of seeds" },
		{ "bad-program", MMF_SEED_MARK "b\nfrobnicate(1)\n" MMF_SEEDS_END "\n", "seed b: " },
	};
	struct mmf_prog *progs;
	char err[256];
	int nr;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *file = write_tmp(cases[i].name, cases[i].text);
		int r = mmf_fuzz_seeds_read(file, &progs, &nr, err, sizeof(err));

		if (!cases[i].err)
			CHECK(!r && nr == 0, "%s: %d, %d seeds (%s)", cases[i].name, r, nr, err);
		else
			CHECK(r && strstr(err, cases[i].err) && !progs && !nr,
			      "%s: %d, err '%s'", cases[i].name, r, err);
		free(progs);
		free(file);
	}
	CHECK(mmf_fuzz_seeds_read("/nonexistent/seeds", &progs, &nr, err, sizeof(err)) &&
	      strstr(err, "No such file"), "a missing file: '%s'", err);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_corpus_arrives),
	TAP_TEST(test_given_first),
	TAP_TEST(test_bad_streams),
};

int main(void)
{
	return tap_run_in(tests, root);
}
