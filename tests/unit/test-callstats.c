// SPDX-License-Identifier: GPL-2.0
/* Per-call results: counting, the table's lines and the JSON. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/callstats.h"
#include "tap.h"

static struct mmf_callstats cs;

static char *table(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	mmf_callstats_print(&cs, f);
	fclose(f);
	return buf;
}

/* The table's line of a call, without its newline. */
static char *line_of(const char *tab, const char *name)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), "\n  %-20s ", name);
	p = strstr(tab, key);
	if (!p)
		return NULL;
	p += 3;
	return strndup(p, strcspn(p, "\n"));
}

static void test_count(void)
{
	memset(&cs, 0, sizeof(cs));
	mmf_callstats_count(&cs, MMF_MREMAP, 0);
	mmf_callstats_count(&cs, MMF_MREMAP, 7);
	mmf_callstats_count(&cs, MMF_MREMAP, -EINVAL);
	mmf_callstats_count(&cs, MMF_MREMAP, -EFAULT);
	mmf_callstats_count(&cs, MMF_MREMAP, -EINVAL);
	mmf_callstats_count(&cs, MMF_MREMAP, -5000);
	mmf_callstats_count(&cs, -1, 0);
	mmf_callstats_count(&cs, MMF_NR_CALLS, 0);
	CHECK(cs.c[MMF_MREMAP].runs == 6, "runs %llu", (unsigned long long)cs.c[MMF_MREMAP].runs);
	CHECK(cs.c[MMF_MREMAP].ok == 2, "ok %llu", (unsigned long long)cs.c[MMF_MREMAP].ok);
	CHECK(cs.c[MMF_MREMAP].nr_errs == 2, "%d errnos", cs.c[MMF_MREMAP].nr_errs);
	CHECK(cs.c[MMF_MREMAP].errs[0].err == EINVAL && cs.c[MMF_MREMAP].errs[0].n == 2,
	      "first errno %d x%llu", cs.c[MMF_MREMAP].errs[0].err,
	      (unsigned long long)cs.c[MMF_MREMAP].errs[0].n);
	CHECK(cs.c[MMF_MREMAP].other == 1, "other %llu",
	      (unsigned long long)cs.c[MMF_MREMAP].other);
}

/* More distinct errnos than slots: the rest are counted, not lost. */
static void test_overflow(void)
{
	memset(&cs, 0, sizeof(cs));
	for (int e = 1; e <= MMF_CALLSTATS_ERRS + 3; e++)
		mmf_callstats_count(&cs, MMF_MBIND, -e);
	CHECK(cs.c[MMF_MBIND].nr_errs == MMF_CALLSTATS_ERRS, "%d errnos",
	      cs.c[MMF_MBIND].nr_errs);
	CHECK(cs.c[MMF_MBIND].other == 3, "other %llu", (unsigned long long)cs.c[MMF_MBIND].other);
	CHECK(cs.c[MMF_MBIND].runs == MMF_CALLSTATS_ERRS + 3, "runs %llu",
	      (unsigned long long)cs.c[MMF_MBIND].runs);
}

/* A program's results map to their statements' calls, blocks included. */
static void test_add(void)
{
	struct mmf_prog p = { .nr = 3 };
	struct mmf_call_result res[] = {
		{ .si = 0, .party = -1, .res = 0 },
		{ .si = 1, .party = -1, .res = 1 },
		{ .si = 2, .party = 1, .res = -ENOMEM },
		{ .si = 9, .party = -1, .res = 0 },	/* no such statement */
	};
	struct mmf_exec_result r = { .nr_results = ARRAY_SIZE(res), .results = res };

	memset(&cs, 0, sizeof(cs));
	p.stmts[0].id = MMF_MMAP;
	p.stmts[1].id = MMF_FORK;
	p.stmts[2].id = MMF_MLOCK;
	mmf_callstats_add(&cs, &p, &r);
	CHECK(cs.c[MMF_MMAP].runs == 1 && cs.c[MMF_MMAP].ok == 1, "mmap");
	CHECK(cs.c[MMF_FORK].runs == 1 && cs.c[MMF_FORK].ok == 1, "fork");
	CHECK(cs.c[MMF_MLOCK].runs == 1 && !cs.c[MMF_MLOCK].ok &&
	      cs.c[MMF_MLOCK].errs[0].err == ENOMEM, "mlock");
}

static void test_table(void)
{
	char *tab, *l, *never;
	const char *line;

	memset(&cs, 0, sizeof(cs));
	for (int i = 0; i < 1000; i++) {
		int64_t res = i < 412 ? 0 : i < 792 ? -EINVAL : i < 912 ? -EFAULT :
			      i < 962 ? -ENOMEM : i < 966 ? -EINTR : -EAGAIN;

		mmf_callstats_count(&cs, MMF_MREMAP, res);
	}
	mmf_callstats_count(&cs, MMF_MADVISE, 0);
	mmf_callstats_count(&cs, MMF_MADVISE, 0);
	mmf_callstats_count(&cs, MMF_MADVISE, -EINVAL);
	mmf_callstats_count(&cs, MMF_DIO_READ, 0);
	mmf_callstats_count(&cs, MMF_DIO_READ, -524);
	mmf_callstats_count(&cs, MMF_DIO_READ, -524);
	mmf_callstats_count(&cs, MMF_DIO_READ, -524);
	mmf_callstats_count(&cs, MMF_PIPE_READ, -EINTR);
	for (int i = 0; i < 300; i++)
		mmf_callstats_count(&cs, MMF_PIPE_READ, 0);
	mmf_callstats_count(&cs, MMF_FORK, 0);
	/* 2 ms per mremap, the only statement time: 3/4 in the call. */
	cs.c[MMF_MREMAP].call_ns = 1500000000ull;
	cs.c[MMF_MREMAP].check_ns = 500000000ull;
	cs.progs = 10;
	cs.prog_ns = 4000000000ull;
	cs.sys_ns = 2000000000ull;
	cs.user_ns = 400000000ull;
	cs.run_ns = 5000000000ull;
	cs.phase_ns[MMF_PHASE_SETUP] = 200000000ull;
	cs.phase_ns[MMF_PHASE_START] = 400000000ull;
	cs.phase_ns[MMF_PHASE_BODY] = 2400000000ull;
	cs.phase_ns[MMF_PHASE_END] = 200000000ull;
	cs.phase_ns[MMF_PHASE_EXIT] = 600000000ull;
	cs.phase_ns[MMF_PHASE_AFTER] = 200000000ull;
	tab = table();
	for (const char *p = tab; *p; p += strcspn(p, "\n") + 1)
		printf("# %.*s\n", (int)strcspn(p, "\n"), p);

	line = "profile: 10 programs, 400.0 ms each: calls 38%, checks after them 12%,"
	       " between them 10%, setup 5%, fork to first call 10%, end checks 5%, exit 15%,"
	       " after (knobs, accounting) 5%; kernel 50%, user 10% of it; between programs"
	       " 20% of the run\n";
	CHECK(!strncmp(tab, line, strlen(line)), "profile '%.*s'", (int)strlen(line), tab);
	l = line_of(tab, "mremap");
	CHECK(l && !strcmp(l, "mremap                   1000  41.2%    2.00  100%  EINVAL 38% EFAULT 12%"
			      " ENOMEM 5%"), "'%s'", l);
	free(l);
	/* Exactly a third is not under a third. */
	l = line_of(tab, "madvise");
	CHECK(l && !strcmp(l, "madvise                     3  66.7%    0.00    0%  EINVAL 33%"), "'%s'", l);
	free(l);
	l = line_of(tab, "dio_read");
	CHECK(l && !strcmp(l, "dio_read                    4  25.0%    0.00    0%  ERRNO524 75% *"), "'%s'", l);
	free(l);
	l = line_of(tab, "pipe_read");
	CHECK(l && !strcmp(l, "pipe_read                 301  99.7%    0.00    0%  EINTR <1%"), "'%s'", l);
	free(l);
	l = line_of(tab, "fork");
	CHECK(l && !strcmp(l, "fork                        1 100.0%    0.00    0%"), "'%s'", l);
	free(l);
	/* Calls by name, then the blocks; "}" is none of them. */
	CHECK(strstr(tab, "  dio_read") < strstr(tab, "  madvise") &&
	      strstr(tab, "  pipe_read") < strstr(tab, "  fork"), "order");
	never = strstr(tab, "\n  never ran: ");
	CHECK(never && strstr(never, " compact_memory ") && strstr(never, " join") && strstr(never, " thread\n") &&
	      !strstr(never, " mremap") && !strstr(tab, " }"), "never ran");
	free(tab);
}

static void test_json(void)
{
	static const char mremap[] = "{\"call\":\"mremap\",\"runs\":4,\"ok\":1,"
		"\"call_ns\":0,\"check_ns\":0,\"low\":true,"
		"\"block\":false,\"errnos\":[{\"errno\":\"EINVAL\",\"count\":2},"
		"{\"errno\":\"EFAULT\",\"count\":1}],\"other\":0}";
	struct strbuf sb;
	char *p;

	memset(&cs, 0, sizeof(cs));
	mmf_callstats_count(&cs, MMF_MREMAP, -EFAULT);
	mmf_callstats_count(&cs, MMF_MREMAP, -EINVAL);
	mmf_callstats_count(&cs, MMF_MREMAP, -EINVAL);
	mmf_callstats_count(&cs, MMF_MREMAP, 0);
	mmf_sb_init(&sb);
	mmf_callstats_json(&cs, &sb);
	printf("# %.200s\n", sb.buf);
	CHECK(!strncmp(sb.buf, "{\"calls\":[{\"call\":\"", 18), "starts '%.60s'", sb.buf);
	p = strstr(sb.buf, "{\"call\":\"mremap\"");
	CHECK(p && !strncmp(p, mremap, strlen(mremap)), "'%.150s'", p);
	CHECK(strstr(sb.buf, "{\"call\":\"compact_memory\",\"runs\":0,\"ok\":0,\"call_ns\":0,"
			     "\"check_ns\":0,\"low\":false,"),
	      "a call that never ran");
	CHECK(strstr(sb.buf, "{\"call\":\"fork\",\"runs\":0,\"ok\":0,\"call_ns\":0,\"check_ns\":0,"
			     "\"low\":false,\"block\":true"),
	      "fork");
	CHECK(strstr(sb.buf, "}],\"programs\":0,\"program_ns\":0,\"user_ns\":0,\"sys_ns\":0,"
		     "\"run_ns\":0,\"phase_ns\":{\"setup\":0,\"start\":0,\"body\":0,\"end\":0,"
		     "\"exit\":0,\"after\":0}}\n"), "ends '%s'", sb.buf + sb.len - 100);
	mmf_sb_free(&sb);
}

static const struct tap_test tests[] = {
	TAP_TEST(test_count),
	TAP_TEST(test_overflow),
	TAP_TEST(test_add),
	TAP_TEST(test_table),
	TAP_TEST(test_json),
};

int main(void)
{
	return tap_run(tests);
}
