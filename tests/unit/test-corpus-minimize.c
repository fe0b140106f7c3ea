// SPDX-License-Identifier: GPL-2.0
/*
 * Queue minimization: for each edge the smallest program that reached it
 * is kept, a program with no edges on record is kept, duplicates (the
 * same program in two instances' queues) count once, and a target that
 * holds files is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign/corpus.h"
#include "model/prog.h"
#include "tap.h"
#include "util/util.h"

static char root[] = "/tmp/mmfuzz-cmin.XXXXXX";

/* A queue file of instance vmK and, unless edges is NULL, its edges. */
static void put(const char *out, int k, int id, const char *text, const char *edges)
{
	char err[256], *path;
	uint8_t buf[4096];
	struct mmf_prog p;
	size_t len;

	CHECK(!mmf_prog_parse(text, &p, err, sizeof(err)), "%s", err);
	len = mmf_prog_encode(&p, buf, sizeof(buf));
	path = mmf_xasprintf("%s/afl/vm%d/queue/id:%06d,test", out, k, id);
	CHECK(!mmf_write_file_atomic(path, buf, len), "%s", path);
	free(path);
	if (!edges)
		return;
	path = mmf_xasprintf("%s/vm-%d/edges/%016llx", out, k,
			     (unsigned long long)mmf_prog_hash(&p));
	CHECK(!mmf_write_file_atomic(path, edges, strlen(edges)), "%s", path);
	free(path);
}

static int count_files(const char *dir)
{
	char *cmd = mmf_xasprintf("ls %s | wc -l", dir);
	FILE *f = popen(cmd, "r");
	int n = -1;

	CHECK(f && fscanf(f, "%d", &n) == 1, "%s", cmd);
	pclose(f);
	free(cmd);
	return n;
}

static void test_minimize(void)
{
	char *out = mmf_xasprintf("%s/run", root), *to = mmf_xasprintf("%s/min", root);
	const char *from[] = { out, NULL };
	static const char small[] = "m0 = mmap(0, 1, anon, PROT_READ, MAP_PRIVATE, 0)\n";
	static const char big[] = "m0 = mmap(0, 8, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
				  "write(m0, 0, 8, 0x11)\nmadvise(m0, 0, 8, MADV_PAGEOUT)\n";
	static const char other[] = "m0 = mmap(0, 4, anon, PROT_READ|PROT_WRITE, MAP_PRIVATE, 0)\n"
				    "mlock(m0, 0, 4)\n";
	static const char norec[] = "m0 = mmap(0, 2, anon, PROT_READ, MAP_PRIVATE, 0)\n"
				    "munmap(m0, 0, 2)\n";
	struct mmf_corpus_stats st;
	char err[256];

	for (int k = 0; k < 2; k++) {
		char *q = mmf_xasprintf("%s/afl/vm%d/queue", out, k);
		char *e = mmf_xasprintf("%s/vm-%d/edges", out, k);

		CHECK(!mmf_mkdir_p(q, 0755) && !mmf_mkdir_p(e, 0755), "dirs");
		free(q);
		free(e);
	}
	put(out, 0, 0, big, "1\n2\n3\n");	/* 3 is only here */
	put(out, 0, 1, small, "1\n2\n");	/* smaller, the same 1 and 2 */
	put(out, 1, 0, small, "1\n2\n");	/* a duplicate in the other queue */
	put(out, 1, 1, other, "2\n4\n");	/* 4 is only here; 2 is small's */
	put(out, 1, 2, norec, NULL);		/* nothing on record: kept */
	CHECK(!mmf_corpus_minimize(from, to, &st, err, sizeof(err)), "%s", err);
	CHECK(st.inputs == 4, "%d inputs", st.inputs);
	CHECK(st.edges == 4 && st.unknown == 1, "%d edges, %d unknown", st.edges, st.unknown);
	/* small for 1 and 2, big for 3, other for 4, and norec. */
	CHECK(st.kept == 4 && count_files(to) == 4, "kept %d", st.kept);
	/* Nothing already there is ever overwritten. */
	CHECK(mmf_corpus_minimize(from, to, &st, err, sizeof(err)) < 0 &&
	      strstr(err, "holds files"), "a full target: '%s'", err);
	free(out);
	free(to);
}

static void test_not_a_campaign(void)
{
	const char *from[] = { "/nonexistent-mmfuzz", NULL };
	char *to = mmf_xasprintf("%s/min2", root);
	struct mmf_corpus_stats st;
	char err[256];

	CHECK(mmf_corpus_minimize(from, to, &st, err, sizeof(err)) < 0 &&
	      strstr(err, "AFL++ engine"), "%s", err);
	CHECK(access(to, F_OK), "the target was made for nothing");
	free(to);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_minimize),
	TAP_TEST(test_not_a_campaign),
};

int main(void)
{
	int r;

	CHECK(mkdtemp(root), "mkdtemp");
	r = tap_run(tests);
	if (!r) {
		char *cmd = mmf_xasprintf("rm -rf %s", root);

		if (system(cmd))
			r = 1;
		free(cmd);
	}
	return r;
}
